//! The OpenAPI document, generated from the handlers and types (utoipa; OpenAPI 3.1).

use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::path::{Operation, Parameter, PathItem};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayItems, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, OpenApi as Document, Ref, RefOr, ResponseBuilder,
};
use utoipa::{Modify, Number, OpenApi};

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
    modifiers(&RateLimitResponses, &IntegerRanges, &HeaderPatterns, &GameLinks),
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
        events::StreamEvent,
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
            for operation in operations(item) {
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

/// The operations of a path.
fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.patch,
        &mut item.head,
    ]
    .into_iter()
    .flatten()
}

/// The parameters an operation defines itself (not those it refers to).
fn parameters(operation: &mut Operation) -> impl Iterator<Item = &mut Parameter> {
    operation
        .parameters
        .iter_mut()
        .flatten()
        .filter_map(|parameter| match parameter {
            RefOr::T(parameter) => Some(parameter),
            RefOr::Ref(_) => None,
        })
}

/// States the range of every integer the service reads into a fixed-width integer (utoipa
/// writes the width only as a `format`, `u-int8`, which JSON Schema does not check): `maximum`
/// 255 for a `u8`, and so on. A larger number is a 400 (`invalid_json` in a body,
/// `bad_request` in a path or query), so the document says so.
struct IntegerRanges;

impl Modify for IntegerRanges {
    fn modify(&self, openapi: &mut Document) {
        if let Some(components) = &mut openapi.components {
            components.schemas.values_mut().for_each(bound_integers);
        }
        for item in openapi.paths.paths.values_mut() {
            for operation in operations(item) {
                for parameter in parameters(operation) {
                    if let Some(schema) = &mut parameter.schema {
                        bound_integers(schema);
                    }
                }
            }
        }
    }
}

/// Adds the `maximum` of its width to every integer of `schema` that has none.
fn bound_integers(schema: &mut RefOr<Schema>) {
    let RefOr::T(schema) = schema else { return };
    match schema {
        Schema::Object(object) => {
            if object.maximum.is_none() {
                object.maximum = object.format.as_ref().and_then(width_maximum);
            }
            object.properties.values_mut().for_each(bound_integers);
            if let Some(additional) = &mut object.additional_properties {
                if let AdditionalProperties::RefOr(schema) = additional.as_mut() {
                    bound_integers(schema);
                }
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                bound_integers(items);
            }
        }
        Schema::OneOf(one_of) => one_of.items.iter_mut().for_each(bound_integers),
        Schema::AllOf(all_of) => all_of.items.iter_mut().for_each(bound_integers),
        Schema::AnyOf(any_of) => any_of.items.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

/// The largest value of an unsigned integer format.
fn width_maximum(format: &SchemaFormat) -> Option<Number> {
    let maximum = match format {
        SchemaFormat::KnownFormat(KnownFormat::UInt8) => u64::from(u8::MAX),
        SchemaFormat::KnownFormat(KnownFormat::UInt16) => u64::from(u16::MAX),
        SchemaFormat::KnownFormat(KnownFormat::UInt32) => u64::from(u32::MAX),
        SchemaFormat::KnownFormat(KnownFormat::UInt64) => u64::MAX,
        _ => return None,
    };
    usize::try_from(maximum).ok().map(Number::UInt)
}

/// The forms of the header parameters the service reads, as patterns: the versions of
/// `If-Match` (one entity tag, `"7"`), the tags of `If-None-Match` (a list, or `*`), an event
/// id in `Last-Event-ID`, and a bearer token (43 URL-safe characters) in `Authorization`.
/// Header values hold no control characters (RFC 9110): HTTP itself rejects them, before the
/// service can answer.
struct HeaderPatterns;

/// `If-Match`: one version as an entity tag (`"7"`, `W/"7"`; the quotes may be left out).
pub const IF_MATCH_PATTERN: &str = r#"^\s*(W/)?"?[0-9]{1,19}"?\s*$"#;
/// `If-None-Match`: `*`, or a comma-separated list of entity tags.
pub const IF_NONE_MATCH_PATTERN: &str = r"^[\t\x20-\x7E\x80-\xFF]*$";
/// `Last-Event-ID`: an event id, a whole number.
pub const LAST_EVENT_ID_PATTERN: &str = r"^\s*[0-9]{1,19}\s*$";
/// `Authorization`: `Bearer` and a token of 43 URL-safe base64 characters.
pub const AUTHORIZATION_PATTERN: &str = r"^Bearer [A-Za-z0-9_-]{43}$";

impl Modify for HeaderPatterns {
    fn modify(&self, openapi: &mut Document) {
        for item in openapi.paths.paths.values_mut() {
            for operation in operations(item) {
                for parameter in parameters(operation) {
                    let pattern = match parameter.name.as_str() {
                        "If-Match" => IF_MATCH_PATTERN,
                        "If-None-Match" => IF_NONE_MATCH_PATTERN,
                        "Last-Event-ID" => LAST_EVENT_ID_PATTERN,
                        "Authorization" => AUTHORIZATION_PATTERN,
                        _ => continue,
                    };
                    if let Some(RefOr::T(Schema::Object(object))) = &mut parameter.schema {
                        object.pattern = Some(pattern.to_owned());
                    }
                }
            }
        }
    }
}

/// OpenAPI links from the answers that create a game (`create_game`, `rematch`: a
/// `CreatedGame` with the game, its version and its host token) to the operations on that
/// game, so that a client (and a stateful test such as Schemathesis') can follow them: the
/// game's id, its `ETag` as `If-Match`, and the host token as `Authorization`.
struct GameLinks;

/// The operations a new game links to, with the parameters they take from it.
const GAME_OPERATIONS: &[(&str, &[&str])] = &[
    ("get_game", &[]),
    ("list_moves", &[]),
    ("play_move", &["If-Match", "Authorization"]),
    ("ai_turns", &["If-Match", "Authorization"]),
    ("suggest_move", &[]),
    ("get_record", &[]),
    ("get_board_picture", &[]),
    ("rematch", &["Authorization"]),
    ("cancel_game", &["If-Match", "Authorization"]),
    ("resign", &["If-Match", "Authorization"]),
    ("hand_to_ai", &["If-Match", "Authorization"]),
    ("join_seat", &["If-Match"]),
    ("leave_seat", &["If-Match", "Authorization"]),
    ("new_invitation", &["If-Match", "Authorization"]),
];

impl Modify for GameLinks {
    fn modify(&self, openapi: &mut Document) {
        for item in openapi.paths.paths.values_mut() {
            for operation in operations(item) {
                let creates = matches!(
                    operation.operation_id.as_deref(),
                    Some("create_game" | "rematch")
                );
                if !creates {
                    continue;
                }
                let Some(RefOr::T(created)) = operation.responses.responses.get_mut("201") else {
                    continue;
                };
                for (target, extra) in GAME_OPERATIONS {
                    let mut link = LinkBuilder::new()
                        .operation_id(*target)
                        .parameter("path.id", "$response.body#/game/id")
                        .description(format!("`{target}` on the new game."));
                    for name in *extra {
                        link = match *name {
                            "If-Match" => {
                                link.parameter("header.If-Match", "$response.header.ETag")
                            }
                            _ => link.parameter(
                                "header.Authorization",
                                "Bearer {$response.body#/tokens/host}",
                            ),
                        };
                    }
                    created
                        .links
                        .insert((*target).to_owned(), link.build().into());
                }
            }
        }
    }
}
