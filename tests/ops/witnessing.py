"""``yacht-daily witness`` run as its operator runs it, in a subprocess, for the witness tests."""

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from app.witness import key as witness_key

WITNESS = [sys.executable, "-c", "from app.cli.main import main; main()", "witness"]


@dataclass
class WitnessRun:
    """A witness's files; ``once(url)`` runs one pass."""

    key: Path
    state: Path
    name: str = "witness.test/w1"
    clock_file: Path | None = None  # the server's test clock, the witness's time too

    def once(self, url: str, *options: str) -> subprocess.CompletedProcess:
        """``yacht-daily witness URL --once``; its exit status and output."""
        env = dict(os.environ)
        if self.clock_file is not None:
            env["YACHT_DAILY_CLOCK_FILE"] = str(self.clock_file)
        return subprocess.run([*WITNESS, url, "--key", str(self.key), "--state", str(self.state),
                               "--name", self.name, "--once", *options],
                              capture_output=True, text=True, timeout=120, check=False, env=env)

    def vkey(self, url: str) -> str:
        """The witness's verifier key, as its first run prints it (creating the key)."""
        done = self.once(url)
        return next(line.split(" ", 1)[1] for line in done.stdout.splitlines()
                    if line.startswith("witness "))

    def create_key(self) -> str:
        """Create the key file as a first run would, without running; the vkey."""
        private_key, _ = witness_key.load_or_create(self.key)
        return witness_key.witness_key(private_key, self.name).vkey

    def read_state(self) -> dict:
        """The state file."""
        return json.loads(self.state.read_text())
