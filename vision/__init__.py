"""Photos in, symbolic boards out: geometry, ONNX inference and one reader per game.

A reader turns a photo of a table into the same board values that ``scoring`` accepts from JSON. The
subpackage :mod:`vision.synth` draws the component art and simulates photos for training and tests;
:mod:`vision.training` trains the models (torch, never imported at run time). ``vision`` never imports
``scorecam``.
"""
