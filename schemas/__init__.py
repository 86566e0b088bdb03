"""Pydantic models of every YAML file kind under ``gamedata/``.

The JSON Schema files generated from them live in ``schemas/json/``.
"""
