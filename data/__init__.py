"""GPU Advisor data files (YAML), shipped as the package ``gpu_advisor_data``."""
