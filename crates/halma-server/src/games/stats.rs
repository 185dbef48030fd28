//! Statistics of finished games: the counters a game adds when it ends ([`counters_of`],
//! written by the store in the same atomic step as the game's last write, so a game counts
//! once however many instances race on its last move), and the views read back from them
//! ([`summary`], [`player`]).
//!
//! Counter sets: `game:{board}.{players}.{options}` per board, player count and rule set (the
//! options as the position notation writes them, `-` for the defaults), with the fields
//! `finished`, `plies`, `len:{plies}` (one per game length), `win_order:{k}` (the winner moved
//! `k`-th in turn order, from 0), `shared_win`, `draw:{reason}`, and, in games of humans
//! against the AI, `ai_games:{level}` and `ai_wins:{level}`; and `player:{name}` per name that
//! joined a seat through an invitation, with `games`, `wins` and `place:{p}`.

use std::collections::BTreeMap;

use halma_rules::{BoardKind, DrawReason, Game};

use super::document::{Header, PlayedBy, SeatChange};
use crate::api::{AiLevelStats, DrawCount, PlaceCount, PlayerStats, StatsGroup, StatsView};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::Counters;

/// Prefix of the counter sets of games.
const GAMES: &str = "game:";
/// Prefix of the counter sets of players.
const PLAYERS: &str = "player:";

/// What a game adds to the statistics when it ends; nothing while it goes on.
pub fn counters_of(header: &Header, game: &Game) -> Counters {
    let Some(outcome) = game.outcome() else {
        return Counters::default();
    };
    let setup = game.variant().setup();
    let players = setup.players;
    let plies = game.record().len();
    let mut fields = vec![
        ("finished".to_owned(), 1),
        ("plies".to_owned(), plies as i64),
        (format!("len:{plies}"), 1),
    ];
    let winners: Vec<u8> = outcome
        .winner()
        .map(|seats| seats.iter().map(|s| s.index()).collect())
        .unwrap_or_default();
    match (winners.first(), outcome.draw) {
        (Some(&first_winner), _) => {
            let order = (first_winner + players - game.first().index()) % players;
            fields.push((format!("win_order:{order}"), 1));
        }
        (None, Some(reason)) => fields.push((format!("draw:{}", draw_name(reason)), 1)),
        (None, None) => fields.push(("shared_win".to_owned(), 1)),
    }
    let humans = header.seats.iter().any(|s| s.kind == PlayedBy::Human);
    if humans {
        for (i, seat) in header.seats.iter().enumerate() {
            if let (PlayedBy::Ai, Some(level)) = (seat.kind, seat.level) {
                fields.push((format!("ai_games:{level}"), 1));
                if winners.contains(&(i as u8)) {
                    fields.push((format!("ai_wins:{level}"), 1));
                }
            }
        }
    }
    let mut groups = vec![(
        game_set(setup.board, players, &setup.options.to_text()),
        fields,
    )];
    for seat in joined_seats(header) {
        let name = &header.seats[usize::from(seat)].name;
        let mut fields = vec![("games".to_owned(), 1)];
        if winners.contains(&seat) {
            fields.push(("wins".to_owned(), 1));
        }
        let place = outcome
            .ranking
            .iter()
            .find(|p| p.seats.iter().any(|s| s.index() == seat))
            .and_then(|p| p.place);
        if let Some(place) = place {
            fields.push((format!("place:{place}"), 1));
        }
        groups.push((format!("{PLAYERS}{name}"), fields));
    }
    Counters { groups }
}

/// The seats whose players joined them through an invitation and still hold them (not handed
/// to the AI since).
fn joined_seats(header: &Header) -> Vec<u8> {
    let mut seats: Vec<u8> = header
        .seat_changes
        .iter()
        .filter_map(|c| match c {
            SeatChange::Joined { seat, .. } => Some(*seat),
            SeatChange::Left { .. } => None,
        })
        .filter(|&seat| header.seats[usize::from(seat)].kind == PlayedBy::Human)
        .collect();
    seats.sort_unstable();
    seats.dedup();
    seats
}

fn draw_name(reason: DrawReason) -> &'static str {
    match reason {
        DrawReason::Repetition => "repetition",
        DrawReason::NoLegalMoves => "no_legal_moves",
        DrawReason::Deadlock => "deadlock",
    }
}

fn game_set(board: BoardKind, players: u8, options: &str) -> String {
    format!("{GAMES}{}.{players}.{options}", board.name())
}

/// The board, player count and options text of a game counter set's name.
fn parse_game_set(name: &str) -> Option<(BoardKind, u8, &str)> {
    let mut parts = name.strip_prefix(GAMES)?.splitn(3, '.');
    let board = match parts.next()? {
        "star" => BoardKind::Star,
        "square16" => BoardKind::Square16,
        "square10" => BoardKind::Square10,
        "square8" => BoardKind::Square8,
        _ => return None,
    };
    let players = parts.next()?.parse().ok()?;
    Some((board, players, parts.next()?))
}

/// The counters of `field:{key}` fields, by key.
fn keyed<'a>(counters: &'a [(String, i64)], field: &str) -> BTreeMap<&'a str, u64> {
    counters
        .iter()
        .filter_map(|(name, count)| {
            let key = name.strip_prefix(field)?.strip_prefix(':')?;
            Some((key, u64::try_from(*count).unwrap_or(0)))
        })
        .collect()
}

fn count(counters: &[(String, i64)], field: &str) -> u64 {
    counters
        .iter()
        .find(|(name, _)| name == field)
        .map_or(0, |(_, count)| u64::try_from(*count).unwrap_or(0))
}

/// One group of the summary from its counters.
fn group(board: BoardKind, players: u8, rules: &str, counters: &[(String, i64)]) -> StatsGroup {
    let finished = count(counters, "finished");
    let orders = keyed(counters, "win_order");
    let wins_by_turn_order = (0..players)
        .map(|k| orders.get(k.to_string().as_str()).copied().unwrap_or(0))
        .collect();
    let draws = keyed(counters, "draw")
        .into_iter()
        .filter_map(|(reason, games)| {
            let reason = match reason {
                "repetition" => DrawReason::Repetition,
                "no_legal_moves" => DrawReason::NoLegalMoves,
                "deadlock" => DrawReason::Deadlock,
                _ => return None,
            };
            Some(DrawCount { reason, games })
        })
        .collect();
    let ai_wins = keyed(counters, "ai_wins");
    let mut ai_levels: Vec<AiLevelStats> = keyed(counters, "ai_games")
        .into_iter()
        .filter_map(|(level, games)| {
            Some(AiLevelStats {
                level: level.parse().ok()?,
                games,
                wins: ai_wins.get(level).copied().unwrap_or(0),
            })
        })
        .collect();
    ai_levels.sort_by_key(|l| l.level);
    let mut lengths: Vec<(u32, u64)> = keyed(counters, "len")
        .into_iter()
        .filter_map(|(plies, games)| Some((plies.parse().ok()?, games)))
        .collect();
    lengths.sort_unstable();
    StatsGroup {
        board,
        players,
        rules: rules.to_owned(),
        games_finished: finished,
        wins_by_turn_order,
        shared_wins: count(counters, "shared_win"),
        draws,
        ai_levels,
        average_plies: if finished == 0 {
            0.0
        } else {
            count(counters, "plies") as f64 / finished as f64
        },
        median_plies: median(&lengths),
    }
}

/// The median of a histogram of `(value, how often)` sorted by value: the lower middle value
/// for an even count; 0 when empty.
fn median(histogram: &[(u32, u64)]) -> u32 {
    let total: u64 = histogram.iter().map(|(_, n)| n).sum();
    if total == 0 {
        return 0;
    }
    let middle = total.div_ceil(2);
    let mut seen = 0;
    for &(value, n) in histogram {
        seen += n;
        if seen >= middle {
            return value;
        }
    }
    0
}

/// Every group's statistics, by board, player count and rule set.
///
/// # Errors
/// 503 when the store is down, 500 for corrupt counters.
pub async fn summary(state: &AppState) -> Result<StatsView, ApiError> {
    let mut groups = Vec::new();
    for name in state.store.counter_sets().await? {
        let Some((board, players, rules)) = parse_game_set(&name) else {
            continue;
        };
        let counters = state.store.counters(&name).await?;
        groups.push(group(board, players, rules, &counters));
    }
    Ok(StatsView { groups })
}

/// The statistics of a player name.
///
/// # Errors
/// 400 for a name that is not one (1 to 64 characters, no control characters), 503 when the
/// store is down, 500 for corrupt counters.
pub async fn player(state: &AppState, name: &str) -> Result<PlayerStats, ApiError> {
    let name = super::new_game::checked_name(name)
        .ok_or_else(|| ApiError::BadRequest(super::new_game::NAME_RULE.into()))?;
    let counters = state.store.counters(&format!("{PLAYERS}{name}")).await?;
    let mut places: Vec<PlaceCount> = keyed(&counters, "place")
        .into_iter()
        .filter_map(|(place, games)| {
            Some(PlaceCount {
                place: place.parse().ok()?,
                games,
            })
        })
        .collect();
    places.sort_by_key(|p| p.place);
    Ok(PlayerStats {
        games: count(&counters, "games"),
        wins: count(&counters, "wins"),
        places,
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_sets_name_their_group() {
        let name = game_set(BoardKind::Square16, 4, "fifteen_pieces=true");
        assert_eq!(
            parse_game_set(&name),
            Some((BoardKind::Square16, 4, "fifteen_pieces=true"))
        );
        assert_eq!(parse_game_set("player:star.2.-"), None);
        assert_eq!(parse_game_set("game:hex.2.-"), None);
    }

    #[test]
    fn medians_of_histograms() {
        assert_eq!(median(&[]), 0);
        assert_eq!(median(&[(40, 1)]), 40);
        assert_eq!(median(&[(10, 1), (20, 1)]), 10);
        assert_eq!(median(&[(10, 1), (20, 1), (90, 1)]), 20);
        assert_eq!(median(&[(10, 3), (20, 1), (90, 1)]), 10);
    }

    #[test]
    fn a_group_reads_its_counters() {
        let counters: Vec<(String, i64)> = [
            ("finished", 3),
            ("plies", 300),
            ("len:90", 1),
            ("len:100", 1),
            ("len:110", 1),
            ("win_order:0", 2),
            ("draw:repetition", 1),
            ("ai_games:10", 2),
            ("ai_wins:10", 1),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), *v))
        .collect();
        let g = group(BoardKind::Star, 2, "-", &counters);
        assert_eq!(g.games_finished, 3);
        assert_eq!(g.wins_by_turn_order, [2, 0]);
        assert_eq!(g.median_plies, 100);
        assert!((g.average_plies - 100.0).abs() < 1e-9);
        assert_eq!(g.draws.len(), 1);
        assert_eq!(
            (
                g.ai_levels[0].level,
                g.ai_levels[0].games,
                g.ai_levels[0].wins
            ),
            (10, 2, 1)
        );
    }
}
