"""The FastAPI app: the page at ``/``, its files under ``/static/``, and the JSON API under ``/api/``
(documented at ``/docs``). Every refusal is ``{"error": "one line"}`` with a 4xx status; a bug is a
one-line 500, logged with its traceback; the server keeps serving after either.

    app = create_app(Path("games.sqlite"))      # uvicorn.run(app), or TestClient(app)
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from scorecam import __version__
from scorecam.web.errors import WebError
from scorecam.web.service import Scorekeeper, score_board
from scorecam.web.store import Store
from scorecam.web.uploads import MAX_PHOTO_BYTES, BodyLimit

log = logging.getLogger("scorecam.web")
STATIC = Path(__file__).with_name("static")
PhotoFile = Annotated[
    UploadFile, File(description="the photo: JPEG, PNG, HEIC, WebP, BMP or TIFF, at most 25 MB")
]


def create_app(db_path: Path, *, preload_models: bool = False) -> Any:
    """The app over the games file ``db_path`` (made when missing; its photos go beside it).

    ``preload_models``: load the reader's models now rather than with the first photo (`serve`)."""
    store = Store(db_path)
    keeper = Scorekeeper(store)
    app = FastAPI(
        title="scorecam",
        version=__version__,
        description="Photograph the table, get the score: photos read, corrected and kept in whole games.",
    )
    app.state.keeper = keeper
    if preload_models:
        load_models()

    @app.exception_handler(WebError)
    async def refused(request: Request, error: WebError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": validation_message(error.errors())}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        message = error.detail if isinstance(error.detail, str) else "bad request"
        if error.status_code == 404 and message == "Not Found":
            message = f"no such page: {request.url.path[:200]}"
        return JSONResponse({"error": message}, status_code=error.status_code)

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        from vision.errors import ModelFileError

        log.exception("internal error on %s %s", request.method, request.url.path)
        message = f"internal error ({error.__class__.__name__}); the server log has the details"
        if isinstance(error, ModelFileError):  # an installation problem: say which file
            message = f"the server cannot read photos: {error}"
        return JSONResponse({"error": message}, status_code=500)

    # --- the page -------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- games ----------------------------------------------------------------------------------

    @app.get("/api/games", summary="Every game kept, newest first")
    def list_games() -> list[dict]:
        return keeper.games()

    @app.post("/api/games", summary="Start a game", status_code=201)
    def new_game(
        players: Annotated[
            list[Any],
            Body(description="the players' names, in seating order (Mediterráneo: circles, then squares)"),
        ],
        game: Annotated[str, Body(description="mondo or mediterraneo")] = "mondo",
        name: Annotated[str | None, Body(description="a name for the game")] = None,
        grid: Annotated[
            Any, Body(description="Mondo: 3 (the rulebook's game) or 4; every photo is read on it")
        ] = 3,
    ) -> dict:
        return keeper.create_game(game, name, players, grid)

    @app.get("/api/games/{game_id}", summary="A game: its turns, islands, totals and winners")
    def get_game(game_id: int) -> dict:
        return keeper.game_view(game_id)

    @app.put("/api/games/{game_id}/turns/{turn}/first-out", summary="Who jumped out first in a turn")
    def first_out(
        game_id: int,
        turn: int,
        player: Annotated[str | None, Body(embed=True, description="a player's name, or null")] = None,
    ) -> dict:
        return keeper.set_first_out(game_id, turn, player)

    @app.post(
        "/api/games/{game_id}/turns/{turn}/photos",
        summary="A player's island of a turn, from a photo (a later photo replaces it)",
        status_code=201,
    )
    def turn_photo(game_id: int, turn: int, player: Annotated[str, Form()], photo: PhotoFile) -> dict:
        return keeper.add_photo(_read(photo), photo.filename, game_id=game_id, turn=turn, player=player)

    @app.put(
        "/api/games/{game_id}/rounds/{number}",
        summary="A Mediterráneo round: the objectives, who chose first, seagull cards played, cards out",
    )
    def set_round(
        game_id: int,
        number: int,
        objectives: Annotated[
            dict[str, Any], Body(description='player -> {"plus": SPECIES, "minus": SPECIES}')
        ],
        first: Annotated[
            str | None, Body(description="who chose an objective first (round 1; later the rules say)")
        ] = None,
        seagulls: Annotated[
            list[Any], Body(description="the players who played their seagull card seagull-side")
        ] = [],  # noqa: B006 - FastAPI copies defaults
        cards_out: Annotated[
            bool, Body(description="the round ended because the next player had no cards left")
        ] = False,
    ) -> dict:
        return keeper.set_round(game_id, number, objectives, first, seagulls, cards_out)

    @app.post(
        "/api/games/{game_id}/rounds/{number}/photos",
        summary="A Mediterráneo round's sea, from a photo (a later sea replaces it)",
        status_code=201,
    )
    def round_photo(
        game_id: int,
        number: int,
        photo: PhotoFile,
        first: Annotated[
            str | None,
            Form(description="round 1 without objectives yet: who chose first (else as the cards suggest)"),
        ] = None,
        seagulls: Annotated[
            list[str], Form(description="without objectives yet: the players who played their seagull card")
        ] = [],  # noqa: B006 - FastAPI copies defaults
        cards_out: Annotated[
            bool, Form(description="without objectives yet: the next player had no cards left")
        ] = False,
    ) -> dict:
        """A round with no objectives yet takes them from the two objective cards read in the photo
        (a card not found: the sea is kept and its page asks for that objective)."""
        fields = {"first": first, "seagulls": seagulls, "cards_out": cards_out}
        return keeper.add_photo(
            _read(photo), photo.filename, game_id=game_id, turn=number, rounds=True, round_fields=fields
        )

    @app.post(
        "/api/games/{game_id}/rounds/{number}/board",
        summary="A Mediterráneo round's sea, from its board JSON (a later sea replaces it)",
        status_code=201,
    )
    def round_board(
        game_id: int, number: int, data: Annotated[Any, Body(description="the sea's board JSON (DESIGN.md)")]
    ) -> dict:
        return keeper.add_sea_board(game_id, number, data)

    # --- photos ---------------------------------------------------------------------------------

    @app.post("/api/photos", summary="Read and score a photo of one island", status_code=201)
    def new_photo(
        photo: PhotoFile,
        grid: Annotated[str | None, Form(description="3, 4, or guess (the default)")] = None,
    ) -> dict:
        return keeper.add_photo(_read(photo), photo.filename, grid=grid)

    @app.get("/api/photos/{photo_id}", summary="A photo's reading, score, checks and cells")
    def get_photo(photo_id: int) -> dict:
        return keeper.photo_view(photo_id)

    @app.get(
        "/api/photos/{photo_id}/picture.jpg",
        summary="The annotated picture of the island as corrected",
        response_class=Response,
    )
    def picture(photo_id: int) -> Response:
        return Response(
            keeper.picture(photo_id), media_type="image/jpeg", headers={"Cache-Control": "max-age=3600"}
        )

    @app.get(
        "/api/photos/{photo_id}/cells/{row}/{tile}", summary="A cell's reading and its best alternatives"
    )
    def cell(photo_id: int, row: int, tile: int) -> dict:
        return keeper.cell(photo_id, row, tile)

    @app.get("/api/photos/{photo_id}/sea/{x}/{y}", summary="A sea cell's reading and what else it may be")
    def sea_cell(photo_id: int, x: int, y: int) -> dict:
        return keeper.sea_cell(photo_id, x, y)

    @app.post(
        "/api/photos/{photo_id}/corrections",
        summary="Put a tile (or an empty space) into an island's cell, or a content into a sea's cell; re-score",
    )
    def correct(
        photo_id: int,
        row: Annotated[
            int | None, Body(description="Mondo: counted from 1, as the picture labels it")
        ] = None,
        tile: Annotated[
            int | None, Body(description="Mondo: counted from 1, as the picture labels it")
        ] = None,
        x: Annotated[int | None, Body(description="Mediterráneo: the cell's x in the sea")] = None,
        y: Annotated[int | None, Body(description="Mediterráneo: the cell's y in the sea")] = None,
        becomes: Annotated[
            dict[str, Any] | None,
            Body(
                description="the tile's JSON, or a sea cell's {content, points, frame} (DESIGN.md); "
                "null: an empty space, no card"
            ),
        ] = None,
    ) -> dict:
        return keeper.correct(photo_id, row, tile, becomes, x, y)

    @app.delete("/api/photos/{photo_id}/corrections/last", summary="Undo the last correction")
    def undo(photo_id: int) -> dict:
        return keeper.undo(photo_id)

    # --- boards ---------------------------------------------------------------------------------

    @app.post("/api/boards", summary="Score a board JSON of any game (a Mediterráneo sea, a Mondo turn, ...)")
    def board(data: Annotated[Any, Body(description="the board (DESIGN.md's formats)")]) -> dict:
        return score_board(data)

    return BodyLimit(app)


def _read(photo: UploadFile) -> bytes:
    """The upload's bytes, at most MAX_PHOTO_BYTES + 1 (the limit is also enforced on the body)."""
    return photo.file.read(MAX_PHOTO_BYTES + 1)


def validation_message(errors: Any) -> str:
    """FastAPI's list of validation errors as one line: the first, where it is, and what it means."""
    if not errors:
        return "bad request"
    first = errors[0]
    kind = first.get("type", "")
    where = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
    place = ".".join(where)
    if kind == "json_invalid":
        return "broken JSON in the request body"
    if kind == "missing":
        if place == "photo":
            return "no photo in the upload (send it as the form field 'photo')"
        return f"missing {place or 'request body'}"
    message = str(first.get("msg", "invalid value"))
    return f"{place}: {message}" if place else message


def load_models() -> None:
    """Load the readers' models (once per process: they are cached). A sea model not there yet is
    said when a sea photo comes, not at start: Mondo photos are read meanwhile."""
    from vision.errors import ModelFileError
    from vision.mondo.locate import load_locator
    from vision.mondo.reader import tile_model

    tile_model()
    load_locator()
    try:
        from vision.mediterraneo.locate import load_locator as load_sea_locator
        from vision.mediterraneo.reader import load_cell_model

        load_cell_model()
        load_sea_locator()
    except (ModelFileError, ImportError) as error:
        log.warning("Mediterráneo seas cannot be read from photos: %s", error)
