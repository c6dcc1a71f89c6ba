"""Test helper: a copy of a JSON document with one value changed or deleted."""

import copy

DELETE = object()


def edited(data, path: tuple, value):
    """A deep copy of ``data`` with the value at ``path`` set to ``value`` (removed for DELETE)."""
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data
