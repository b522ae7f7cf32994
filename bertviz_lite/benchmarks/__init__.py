"""Benchmarks that print their figures and assert nothing: speed and memory targets (`speed.py`) and CPU against
GPU forward passes (`devices.py`)."""
