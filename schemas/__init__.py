"""Pydantic models of every YAML file kind under ``gamedata/``; JSON Schema exports live in ``json/``."""
