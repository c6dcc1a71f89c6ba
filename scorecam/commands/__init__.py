"""The sub-commands of ``scorecam``, one module each; ``scorecam.cli`` puts them together.

Each module imports only click and the standard library at its top: what a command needs (numpy,
OpenCV, the models, rich) is imported inside it, so ``scorecam score photo.jpg`` starts fast.
"""
