"""Model training: datasets cut from simulator photos, torch models, ONNX export.

Needs the ``train`` extra (torch, onnx). Nothing here is imported at run time: the readers load the
exported ONNX files with onnxruntime alone.
"""
