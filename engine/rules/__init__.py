"""The generic 18xx rules machinery: state, actions, rounds and steps, driven by game data."""
