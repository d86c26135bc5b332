"""Helpers shared by the test packages (bot specs, process checks, the Node guard). Tests import
them from here; conftest files only define fixtures."""
