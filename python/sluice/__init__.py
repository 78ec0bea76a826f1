"""Sluice, an analytical SQL engine for data on object storage, from Python.

    import sluice
    con = sluice.connect()
    con.sql("SELECT 42 AS answer").fetchall()
"""
from ._sluice import *  # noqa: F401,F403
from ._sluice import __version__  # noqa: F401

from . import _sluice
from .relation import Relation, install as _install_relations

_install_relations(_sluice.Connection, _sluice)
