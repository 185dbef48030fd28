//! The OpenAPI document, generated from the handlers and types (utoipa; OpenAPI 3.1).

use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, OpenApi as Document, Ref, RefOr, ResponseBuilder,
};
use utoipa::{Modify, OpenApi};

use crate::api;
use crate::problem::Problem;
use crate::routes::games::{self, AiTurnsRequest, HandoverRequest};
use crate::routes::health::{self, Liveness, Readiness};
use crate::routes::{analysis, boards, events, lobby, seats, stats};

/// The service's OpenAPI document: `ApiDoc::openapi()`.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Halma game service",
        description = "A stateless REST service that hosts games of Chinese checkers and Halma. \
            Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code`.\n\n\
            Seats and players: every `seat` in JSON (bodies, paths, queries) counts from 0 in turn \
            order; texts for people count players from 1, player n being seat n - 1: the \
            position notation's player to move (`... 1 0,0`), the text export of a record \
            (`[Player1 \"Ada\"]`, `[First \"1\"]`, `12. 2 c1-e3`), the board picture's title and \
            the default seat names (`Player 1`). Problem details say `seat` for the first kind \
            and `player` for the second."
    ),
    modifiers(&RateLimitResponses),
    paths(
        games::create_game,
        games::get_game,
        games::list_moves,
        games::play_move,
        games::ai_turns,
        games::suggestion,
        games::record,
        games::board_picture,
        games::rematch,
        games::resign,
        games::hand_to_ai,
        games::cancel_game,
        seats::join,
        seats::leave,
        seats::invitation,
        lobby::list_lobby,
        stats::game_stats,
        stats::player_stats,
        events::game_events,
        analysis::analysis_moves,
        analysis::analysis_suggestion,
        analysis::analysis_check,
        boards::list_boards,
        boards::get_board,
        boards::rule_options,
        health::healthz,
        health::readyz
    ),
    components(schemas(
        Problem,
        Liveness,
        Readiness,
        AiTurnsRequest,
        HandoverRequest,
        halma_rules::BoardKind,
        halma_rules::ForeignCorners,
        halma_rules::BackwardSteps,
        halma_rules::RuleOptions,
        halma_rules::Options,
        api::SeatKind,
        api::SeatRequest,
        api::CreateGameRequest,
        api::SeatView,
        api::ArmyView,
        api::GameStatus,
        halma_rules::Standing,
        halma_rules::DrawReason,
        api::PlaceView,
        api::GameResult,
        api::MoveView,
        crate::events::MoveEvent,
        crate::events::ResultEvent,
        crate::events::ResignedEvent,
        crate::events::HandoverEvent,
        crate::events::SeatJoinedEvent,
        crate::events::SeatLeftEvent,
        api::Invitation,
        api::JoinRequest,
        api::JoinedSeat,
        api::LeftSeat,
        api::LobbyGame,
        api::LobbyPage,
        api::StatsView,
        api::StatsGroup,
        api::DrawCount,
        api::AiLevelStats,
        api::PlayerStats,
        api::PlaceCount,
        api::GameView,
        api::GameTokens,
        api::CreatedGame,
        api::LegalMoveView,
        api::LegalMoves,
        api::PlayMoveRequest,
        api::MoveOutcome,
        api::SuggestionView,
        api::GameRecord,
        api::ResignationView,
        api::HandoverView,
        api::SeatChangeView,
        api::SeatChangeKind,
        api::CellView,
        api::CornerView,
        api::BoardView,
        api::BoardList,
        api::BoardSummary,
        api::RuleOptionInfo,
        api::RuleOptionList,
        api::AnalysisMovesRequest,
        api::AnalysisMoves,
        api::AnalysisSuggestionRequest,
        api::SuggestionLine,
        api::AnalysisSuggestion,
        api::AnalysisCheckRequest,
        api::AnalysisCheck
    )),
    tags(
        (name = "games", description = "Create games, read them, list and play moves, ask the AI."),
        (name = "analysis", description = "The rules and the AI for any position, stored nowhere: legal moves, best moves, move checks."),
        (name = "seats", description = "Open seats, invitations and the lobby: join a game, leave it while it waits, cancel it."),
        (name = "stats", description = "Statistics of finished games and of player names."),
        (name = "boards", description = "Board geometry and rule options, for drawing boards and building setup forms."),
        (name = "operations", description = "Liveness and readiness of the service.")
    )
)]
pub struct ApiDoc;

/// Adds the `429` answer of the rate limits (see [`crate::limits`]) to every operation they
/// apply to: all but the health probes.
struct RateLimitResponses;

impl Modify for RateLimitResponses {
    fn modify(&self, openapi: &mut Document) {
        let retry_after = HeaderBuilder::new()
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1)),
            ))
            .description(Some(
                "Seconds until the bucket holds enough for this request again.",
            ))
            .build();
        let response = ResponseBuilder::new()
            .description(
                "A rate limit of the client is reached (`rate_limited`; `reason` names it: \
                 `requests`, `writes`, `game_creation` or `ai_time`); retry after \
                 `Retry-After` seconds.",
            )
            .content(
                crate::problem::PROBLEM_JSON,
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .build(),
            )
            .header("Retry-After", retry_after)
            .build();
        for (path, item) in &mut openapi.paths.paths {
            if matches!(path.as_str(), "/healthz" | "/readyz") {
                continue;
            }
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
                &mut item.head,
            ];
            for operation in operations.into_iter().flatten() {
                let responses = &mut operation.responses.responses;
                // An operation that answers a `4XX` range already covers 429 there (a
                // second, narrower entry would be unreachable in generated clients).
                match responses.get_mut("4XX") {
                    Some(RefOr::T(range)) => range.description.push_str(
                        " 429 when a rate limit is reached (`rate_limited`, retry after \
                         `Retry-After` seconds).",
                    ),
                    Some(RefOr::Ref(_)) => {}
                    None => {
                        responses.insert("429".to_owned(), response.clone().into());
                    }
                }
            }
        }
    }
}
