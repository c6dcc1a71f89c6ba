"""Reading Mondo islands from photos: find the island, read every tile, decode against the kit."""
