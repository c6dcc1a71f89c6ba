"""The ``scorecam`` command line: click for the options, one module per sub-command in
``scorecam.commands``, and one place where every failure becomes a one-line message and an exit code.

``main(argv)`` returns the exit code (the console script exits with it), so tests run the whole
command line in-process.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence

import click

from scorecam import __version__
from scorecam.commands.batch import batch
from scorecam.commands.evaluate import evaluate
from scorecam.commands.kit import kit
from scorecam.commands.mediatore import mediatore
from scorecam.commands.score import score
from scorecam.commands.serve import serve
from scorecam.commands.synth import synth, synth_options, synth_world
from scorecam.commands.turn import turn
from scorecam.errors import Exit, InputError

__all__ = ["main", "synth_options", "synth_world"]

DESCRIPTION = """\
Photograph the table, get the score.

scorecam reads a photo of a finished Mondo island, a Mediterráneo sea (with the players'
objectives) or a Snorkeling table and scores it by the rulebook, with a picture that shows why. It
also scores boards written as JSON, for every game it knows: Mondo islands,
turns and games; Mediterráneo seas, play sequences and matches; Snorkeling rounds, games and
turns; Mediatore rounds, played rounds and ledgers. The board a photo was read as can be fixed by
hand and scored again.
"""

EPILOG = """\
\b
examples:
  scorecam score samples/mondo/mondo-s9900-00000.jpg -a island.png
  scorecam score samples/mondo/*.jpg --annotate annotated/
  scorecam score samples/boards/kathrin-peter-turn.json
  scorecam score samples/boards/snorkeling-round.json samples/boards/mediatore-round.json
  scorecam turn --first Kathrin Kathrin=k.jpg Peter=p.jpg
  scorecam batch photos/ -o results.csv -j 4
  scorecam kit Mediterráneo
  scorecam synth mediatore -n 16 -o cards --contact-sheet cards.jpg
  scorecam synth mondo -n 500 -s 9001 -o heldout && scorecam eval heldout -o figures.json
  scorecam serve --host 0.0.0.0          # the web app, for the phones at the table

\b
exit codes: 0 scored, 1 some inputs failed (batch), 2 usage, 3 unreadable input,
            4 no board found, 70 internal error (a bug: please report it)

\b
shell completion (bash; zsh and fish alike, with zsh_source or fish_source):
  eval "$(_SCORECAM_COMPLETE=bash_source scorecam)"     # in ~/.bashrc
"""

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
# `scorecam --help` lists the commands in these groups, in this order; one in none comes last.
SECTIONS = (
    ("Scoring", ("score", "turn", "mediatore", "batch", "serve")),
    ("Kits, simulated photos and measuring", ("kit", "synth", "eval")),
)


class Scorecam(click.Group):
    """The command group: suggests a command for a misspelled one, and turns the errors of a
    command's work into one line and an exit code (usage errors stay click's, scoped to the command)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # in the order a player meets them: score, turn, mediatore, ...

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands under the headings of SECTIONS, each with its one-line help."""
        commands = {name: self.get_command(ctx, name) for name in self.list_commands(ctx)}
        shown = {name: cmd for name, cmd in commands.items() if cmd is not None and not cmd.hidden}
        width = max(map(len, shown), default=0)  # one column for every section: the helps line up
        placed: set[str] = set()
        for title, names in (*SECTIONS, ("Other commands", tuple(shown))):
            rows = [
                (n.ljust(width), shown[n].get_short_help_str(formatter.width - 6 - width))
                for n in names
                if n in shown and n not in placed
            ]
            placed.update(name.strip() for name, _ in rows)
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as error:
            name = args[0] if args else ""
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            if close and not name.startswith("-"):
                raise click.UsageError(f"No such command {name!r}. Did you mean {close[0]!r}?", ctx) from None
            raise error

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except InputError as error:
            return _say(str(error), error.code)
        except KeyboardInterrupt:
            return _say("interrupted", 130)
        except BrokenPipeError:  # `scorecam ... | head`: the reader has gone, nothing to say
            _silence_stdout()
            return int(Exit.SCORED)
        except OSError as error:  # a folder that cannot be written, a full disk
            return _say(f"{error.filename or ''}: {error.strerror or error}", Exit.UNREADABLE)
        except Exception as error:
            from vision.errors import ModelFileError

            if isinstance(error, ModelFileError):  # an installation problem: say which file
                return _say(str(error), Exit.UNREADABLE)
            if os.environ.get("SCORECAM_DEBUG"):
                raise
            # A bug must still not print a traceback where one line is promised, nor pass for bad input.
            return _say(
                f"internal error ({error.__class__.__name__}: {error}); please report it "
                "(SCORECAM_DEBUG=1 shows where)",
                Exit.INTERNAL,
            )


@click.group(cls=Scorecam, help=DESCRIPTION, epilog=EPILOG, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="scorecam")
def cli() -> None:
    pass


for command in (score, turn, mediatore, batch, serve, kit, synth, evaluate):
    cli.add_command(command)


def _say(message: str, code: int) -> int:
    from scoring.errors import cut, printable

    print(f"scorecam: {cut(printable(message), 2000)}", file=sys.stderr)
    return int(code)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's last flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # in-process, stdout may be no real file
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    # One OpenBLAS thread: the reader's matrices are small, and idle BLAS threads spin on the other
    # core (-170 ms CPU per photo), where batch runs its second worker. Spawned workers inherit it.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        code = cli.main(
            args=list(argv) if argv is not None else None, prog_name="scorecam", standalone_mode=False
        )
    except click.ClickException as error:
        error.show()
        return 2 if error.exit_code == 1 else int(error.exit_code)  # 1 is batch's alone
    except click.Abort:
        return _say("interrupted", 130)
    return int(code or 0)
