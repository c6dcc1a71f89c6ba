"""The web app of `scorecam serve`: a phone page that reads a photo, shows the annotated picture and
the score, takes corrections, and keeps whole games in SQLite.

    app.py        the FastAPI app: the JSON API under /api/ and the page
    store.py      the SQLite store of games, players, turns, rounds, photos and corrections (schema by version)
    games.py      what each game brings: its photo reader and its game score
    mondo.py      Mondo: a photo read with its alternatives per cell, corrections, the picture
    mediterraneo.py  Mediterráneo: a sea read (or given as JSON), corrections, a match of rounds
    uploads.py    the body size limit and the upload's bytes, checked before anything touches a file
    static/       index.html, app.js, style.css: plain JavaScript, no build step

Nothing here is imported by `scorecam --help`: the serve command imports the app when it runs.
"""
