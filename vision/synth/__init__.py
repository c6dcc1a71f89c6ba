"""Component art, printable kits and the photo simulator.

scorecam ships its own print-and-play edition of each game: the component catalogs (``vision/catalogs/*.json``,
read with :func:`vision.synth.catalog.load_catalog`) say what every face shows, and the art modules
(e.g. :mod:`vision.synth.mondo_art`) draw each face deterministically from that data. The same drawings
make the printable kits and the synthetic photos (with truth) that train and evaluate the readers.
"""
