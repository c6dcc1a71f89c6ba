from scorecam.cli import main

raise SystemExit(main())
