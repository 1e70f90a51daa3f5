"""GPU Advisor bot: Discord and terminal adapters around the engine."""
