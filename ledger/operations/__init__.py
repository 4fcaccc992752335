"""Every session at once (verify, rebuild, migrate), upgrades, backups, copies."""
