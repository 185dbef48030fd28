//! The stored form of a game: the rules crate's snapshot plus the seats, the token hashes and
//! the AI settings, as JSON; every read checks it.
//!
//! A game is stored as a head and a log (see [`crate::store`]), so that a write's cost does not
//! grow with the game: the head is the [`Document`] without its growing parts (the record, the
//! resignations, the repetition counts and the versions' change counts), rewritten by every
//! write; each write appends one [`LogEntry`] with what it added. A reader that holds nothing
//! joins the two back into the whole document ([`Document::read`]); a reader that holds the
//! game at an earlier version plays the new entries forward instead. Games stored before the
//! log (formats 1 and 2) are one whole document; their next write moves them into the log
//! ([`write`]).
//!
//! Once read, a document splits into its [`Header`] and the snapshot the game is restored
//! from; requests (and the cache of restored games) keep only the header and the game.

use std::collections::HashMap;

use halma_rules::{Game, GameSnapshot, SeenCount, SnapshotMove, SnapshotResignation, RECENT_KEYS};
use serde::{Deserialize, Serialize};

use crate::store::{LogWrite, Version};
use crate::token::TokenHash;

/// The document format written by this version of the service: a head and a log.
pub const FORMAT: u32 = 3;

/// The format of a whole game in one document, written before the log was kept.
const FORMAT_WHOLE: u32 = 2;

/// The format written before the anti-blocking rule had its grace period. Such games keep the
/// rule they were created with: they are read with a grace period of 0, written into their
/// setup (and the position texts) so that they replay the same way from then on.
const FORMAT_WITHOUT_GRACE: u32 = 1;

/// Who plays a seat, as stored (`human`, `ai` or `open`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayedBy {
    /// A person (or a client's own bot), moving with the seat's token.
    Human,
    /// The hosted AI, which moves by itself.
    Ai,
    /// Nobody yet: the seat waits for someone to join (with its invitation code, or freely in
    /// a public game).
    Open,
}

/// A seat taken or given up while the game waited for players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatChange {
    /// Someone joined the seat under this name.
    Joined {
        /// How many moves had been played (a game started from a record has some).
        after: u32,
        /// The seat.
        seat: u8,
        /// The name the player joined with.
        name: String,
    },
    /// The seat's player left; the seat is open again.
    Left {
        /// How many moves had been played.
        after: u32,
        /// The seat.
        seat: u8,
    },
}

impl SeatChange {
    /// The seat that changed.
    pub fn seat(&self) -> u8 {
        match self {
            Self::Joined { seat, .. } | Self::Left { seat, .. } => *seat,
        }
    }

    /// How many moves had been played when it changed.
    pub fn after(&self) -> u32 {
        match self {
            Self::Joined { after, .. } | Self::Left { after, .. } => *after,
        }
    }
}

/// A seat handed to the AI during the game (its player left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handover {
    /// How many moves had been played.
    pub after: u32,
    /// How many resignations had been made (orders it among the resignations after the same
    /// move).
    pub resignations: u32,
    /// The seat.
    pub seat: u8,
    /// The AI level that plays it from then on.
    pub level: u8,
}

/// One seat as stored.
// No `PartialEq`: the invitation's hash is compared only by `TokenHash::matches`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredSeat {
    /// Display name.
    pub name: String,
    /// Human or AI.
    pub kind: PlayedBy,
    /// AI level, for AI seats.
    pub level: Option<u8>,
    /// For an open seat: the hash of its invitation code (none issued: only a public game's
    /// seat can then be joined).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation: Option<TokenHash>,
}

impl StoredSeat {
    /// A seat played by `kind` under `name`, at `level` for the AI.
    pub fn new(name: String, kind: PlayedBy, level: Option<u8>) -> Self {
        Self {
            name,
            kind,
            level,
            invitation: None,
        }
    }
}

/// A game as stored: a [`Header`]'s fields and the game's snapshot, in one JSON object.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Always [`FORMAT`].
    pub format: u32,
    /// Creation time, seconds since the Unix epoch.
    pub created_at: u64,
    /// The seats.
    pub seats: Vec<StoredSeat>,
    /// Hash of the host token.
    pub host_token: TokenHash,
    /// Hashes of the seat tokens, in seat order.
    pub seat_tokens: Vec<TokenHash>,
    /// Thinking time of the AI seats per move, in milliseconds.
    pub ai_time_ms: u32,
    /// The starting position in the notation.
    pub start_position: String,
    /// The game this one is a rematch of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
    /// See [`Header::changes_by_version`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes_by_version: Vec<u32>,
    /// See [`Header::handovers`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub handovers: Vec<Handover>,
    /// See [`Header::public`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
    /// See [`Header::started_elsewhere`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub started_elsewhere: bool,
    /// See [`Header::seat_changes`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seat_changes: Vec<SeatChange>,
    /// The game.
    pub game: GameSnapshot,
    /// See [`Header::in_log`] (not stored: it is what the format says).
    #[serde(skip)]
    pub in_log: bool,
}

/// Everything a [`Document`] holds besides the game: what requests need next to the restored
/// game.
#[derive(Clone, Debug)]
pub struct Header {
    /// Creation time, seconds since the Unix epoch.
    pub created_at: u64,
    /// The seats.
    pub seats: Vec<StoredSeat>,
    /// Hash of the host token.
    pub host_token: TokenHash,
    /// Hashes of the seat tokens, in seat order.
    pub seat_tokens: Vec<TokenHash>,
    /// Thinking time of the AI seats per move, in milliseconds.
    pub ai_time_ms: u32,
    /// The starting position in the notation.
    pub start_position: String,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// How many moves and resignations the game had after each write: entry `v - 1` for
    /// version `v`. It tells the version that stored each move, which the event stream reports
    /// (empty for games stored before it was kept).
    pub changes_by_version: Vec<u32>,
    /// The seats handed to the AI during the game, in order.
    pub handovers: Vec<Handover>,
    /// Listed in the lobby while it waits for players; anyone may join its open seats.
    pub public: bool,
    /// The seats taken and given up while the game waited for players, in order.
    pub seat_changes: Vec<SeatChange>,
    /// The game started from a client's position or an imported record rather than from the
    /// initial setup here: its result is left out of the statistics.
    pub started_elsewhere: bool,
    /// The store's log holds the game's changes (false for a game stored whole, before the log
    /// was kept: its next write moves everything into the log).
    pub in_log: bool,
}

impl Header {
    /// Whether the game waits for players: some seat is open. No move is played before every
    /// seat is taken.
    pub fn is_waiting(&self) -> bool {
        self.seats.iter().any(|s| s.kind == PlayedBy::Open)
    }

    /// The open seats.
    pub fn open_seats(&self) -> Vec<u8> {
        (0..self.seats.len())
            .filter(|&i| self.seats[i].kind == PlayedBy::Open)
            .map(|i| i as u8)
            .collect()
    }

    /// The store's idle timer for the game as it is now.
    pub fn lifetime(&self) -> crate::store::Lifetime {
        if self.is_waiting() {
            crate::store::Lifetime::Waiting
        } else {
            crate::store::Lifetime::Playing
        }
    }

    /// Notes the write of the next version, after which the game has `changes` moves and
    /// resignations.
    pub fn note_write(&mut self, changes: u64) {
        self.changes_by_version
            .push(u32::try_from(changes).unwrap_or(u32::MAX));
    }
}

impl Document {
    /// The document (in the current [`FORMAT`]) of `header` with `game`.
    #[must_use]
    pub fn new(header: &Header, game: GameSnapshot) -> Document {
        Document {
            format: FORMAT,
            created_at: header.created_at,
            seats: header.seats.clone(),
            host_token: header.host_token,
            seat_tokens: header.seat_tokens.clone(),
            ai_time_ms: header.ai_time_ms,
            start_position: header.start_position.clone(),
            rematch_of: header.rematch_of.clone(),
            changes_by_version: header.changes_by_version.clone(),
            handovers: header.handovers.clone(),
            public: header.public,
            seat_changes: header.seat_changes.clone(),
            started_elsewhere: header.started_elsewhere,
            game,
            in_log: header.in_log,
        }
    }

    /// The document's header and game.
    #[must_use]
    pub fn into_parts(self) -> (Header, GameSnapshot) {
        let header = Header {
            created_at: self.created_at,
            seats: self.seats,
            host_token: self.host_token,
            seat_tokens: self.seat_tokens,
            ai_time_ms: self.ai_time_ms,
            start_position: self.start_position,
            rematch_of: self.rematch_of,
            changes_by_version: self.changes_by_version,
            handovers: self.handovers,
            public: self.public,
            seat_changes: self.seat_changes,
            started_elsewhere: self.started_elsewhere,
            in_log: self.in_log,
        };
        (header, self.game)
    }

    /// Reads a stored game at `version`: its head and its log, joined into the whole document.
    ///
    /// # Errors
    /// A message saying what is wrong with them.
    pub fn read(head: &str, log: &[String], version: Version) -> Result<Document, String> {
        let mut doc = Document::parse_any(head)?;
        if doc.in_log {
            if u64::try_from(log.len()).ok() != Some(version) {
                return Err(format!(
                    "the log has {} entries at version {version}",
                    log.len()
                ));
            }
            let mut seen = HashMap::new();
            for (index, text) in log.iter().enumerate() {
                let entry = LogEntry::parse(text).map_err(|e| format!("log entry {index}: {e}"))?;
                doc.changes_by_version.push(entry.changes);
                doc.game.record.extend(entry.moves);
                doc.game.resignations.extend(entry.resignations);
                seen.extend(entry.seen.into_iter().map(|s| (s.hash, s.count)));
            }
            doc.game.seen = sorted_seen(seen);
        } else if !log.is_empty() {
            return Err(format!(
                "a document of format {FORMAT_WHOLE} with {} log entries",
                log.len()
            ));
        }
        doc.check()?;
        Ok(doc)
    }

    /// Reads a head of the current format alone, without the growing parts (for a reader that
    /// holds them already).
    ///
    /// # Errors
    /// A message saying what is wrong with it, or that it is no such head.
    pub fn read_head(head: &str) -> Result<Document, String> {
        let doc = Document::parse_any(head)?;
        if !doc.in_log {
            return Err(format!(
                "the head is of format {}, not {FORMAT}",
                doc.format
            ));
        }
        doc.check()?;
        Ok(doc)
    }

    /// Reads a document of any format this service wrote, brought up to the current one: a
    /// head, or a whole game (`in_log` false).
    fn parse_any(text: &str) -> Result<Document, String> {
        let mut doc: Document =
            serde_json::from_str(text).map_err(|e| format!("not a game document: {e}"))?;
        match doc.format {
            FORMAT => {
                let game = &doc.game;
                let grown = !game.record.is_empty()
                    || !game.resignations.is_empty()
                    || !game.seen.is_empty()
                    || !doc.changes_by_version.is_empty();
                if grown {
                    return Err(format!(
                        "a head of format {FORMAT} holds what belongs in the log"
                    ));
                }
                doc.in_log = true;
            }
            FORMAT_WHOLE => {}
            FORMAT_WITHOUT_GRACE => doc.pin_no_grace()?,
            other => {
                return Err(format!(
                "document format {other} is not {FORMAT_WITHOUT_GRACE}, {FORMAT_WHOLE} or {FORMAT}"
            ))
            }
        }
        Ok(doc)
    }

    /// Checks what the rules crate cannot: the seats named agree with the player count.
    fn check(&self) -> Result<(), String> {
        let doc = self;
        let players = usize::from(doc.game.setup.players);
        if let Some(h) = doc
            .handovers
            .iter()
            .find(|h| usize::from(h.seat) >= players)
        {
            return Err(format!("a handover names seat {} of {players}", h.seat));
        }
        if let Some(c) = doc
            .seat_changes
            .iter()
            .find(|c| usize::from(c.seat()) >= players)
        {
            return Err(format!(
                "a seat change names seat {} of {players}",
                c.seat()
            ));
        }
        if doc.seats.len() != players || doc.seat_tokens.len() != players {
            return Err(format!(
                "{} seats and {} seat tokens for {players} players",
                doc.seats.len(),
                doc.seat_tokens.len()
            ));
        }
        Ok(())
    }

    /// Brings a document of [`FORMAT_WITHOUT_GRACE`] up to date: where the anti-blocking rule
    /// is in force, its grace period is set to 0, the rule the game was created with.
    fn pin_no_grace(&mut self) -> Result<(), String> {
        let setup = &mut self.game.setup;
        let anti_blocking = setup
            .options
            .resolve(setup.board, setup.players)
            .map_err(|e| format!("the stored setup cannot be played: {e}"))?
            .anti_blocking;
        if anti_blocking && setup.options.anti_blocking_grace.is_none() {
            setup.options.anti_blocking_grace = Some(0);
            let options = setup.options.to_text();
            self.game.position = with_options_field(&self.game.position, &options)?;
            if self.start_position.split_whitespace().count() == POSITION_FIELDS {
                self.start_position = with_options_field(&self.start_position, &options)?;
            }
        }
        self.format = FORMAT_WHOLE;
        Ok(())
    }

    /// The document as JSON.
    ///
    /// # Errors
    /// Serialisation errors (none are expected for this type).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
}

/// One write's entry in a game's log: what the write added (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogEntry {
    /// The game's changes after the write (see [`Header::changes_by_version`]).
    pub changes: u32,
    /// The moves the write played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<SnapshotMove>,
    /// The resignations it made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resignations: Vec<SnapshotResignation>,
    /// Position keys the repetition rule counted during the write, with their counts after it
    /// (a later entry's count of a key replaces an earlier one's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seen: Vec<SeenCount>,
}

impl LogEntry {
    /// Reads an entry.
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<LogEntry, String> {
        serde_json::from_str(text).map_err(|e| format!("not a log entry: {e}"))
    }

    /// What a write added to `game`, whose changes up to `logged` the log holds already.
    fn since(header: &Header, game: &Game, logged: Logged) -> LogEntry {
        let moves = game.snapshot_moves(logged.moves);
        let resignations = game.snapshot_resignations(logged.resignations);
        let steps = moves.len() + resignations.len();
        let seen = if !game.variant().options().repetition_draw {
            Vec::new()
        } else if logged == Logged::NOTHING || steps >= RECENT_KEYS {
            game.snapshot_seen()
        } else {
            // Every move and resignation notes the position it leaves among the recent keys:
            // the last `steps` of them are the positions this write may have counted.
            let keys = game.recent_keys();
            let counts = keys[keys.len().saturating_sub(steps)..]
                .iter()
                .map(|&hash| (hash, game.seen_count(hash)))
                .filter(|&(_, count)| count > 0);
            sorted_seen(counts.collect())
        };
        LogEntry {
            changes: header.changes_by_version.last().copied().unwrap_or(0),
            moves,
            resignations,
            seen,
        }
    }

    /// The entry as JSON.
    fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
}

/// Repetition counts by key, in the order snapshots keep them.
fn sorted_seen(counts: HashMap<u64, u8>) -> Vec<SeenCount> {
    let mut seen: Vec<SeenCount> = counts
        .into_iter()
        .map(|(hash, count)| SeenCount { hash, count })
        .collect();
    seen.sort_by_key(|s| s.hash);
    seen
}

/// How much of a game the store's log holds: its moves and resignations when it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logged {
    moves: usize,
    resignations: usize,
}

impl Logged {
    /// Nothing yet: a game being created.
    pub const NOTHING: Logged = Logged {
        moves: 0,
        resignations: 0,
    };

    /// What the log holds of `game` as it was read.
    pub fn of(game: &Game) -> Logged {
        Logged {
            moves: game.record().len(),
            resignations: game.resignations().len(),
        }
    }
}

/// What one write stores: the new head, and the log's new entry (or, for a game stored whole
/// before the log was kept, the whole log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// The head.
    pub head: String,
    /// The new entry; or every entry, when `replace`.
    entries: Vec<String>,
    /// The log is replaced by `entries`, one per version.
    replace: bool,
}

impl Write {
    /// The head and the log's new entry after a write of `version` that changed `game` (and
    /// noted the write in `header`), whose changes up to `logged` the log holds
    /// ([`Logged::NOTHING`] when the game is being created).
    ///
    /// # Errors
    /// Serialisation errors (none are expected).
    pub fn of(
        header: &Header,
        game: &Game,
        logged: Logged,
        version: Version,
    ) -> Result<Write, serde_json::Error> {
        let head = Document {
            format: FORMAT,
            ..Document::new(
                &Header {
                    changes_by_version: Vec::new(),
                    ..header.clone()
                },
                game.snapshot_state(),
            )
        }
        .to_json()?;
        if header.in_log || logged == Logged::NOTHING {
            let entry = LogEntry::since(header, game, logged).to_json()?;
            return Ok(Write {
                head,
                entries: vec![entry],
                replace: false,
            });
        }
        // A game stored whole: the first entry holds everything, and every version keeps
        // its change count.
        let count = |v: usize| {
            header
                .changes_by_version
                .get(v)
                .or(header.changes_by_version.last())
                .copied()
                .unwrap_or(0)
        };
        let mut first = LogEntry::since(header, game, Logged::NOTHING);
        first.changes = count(0);
        let mut entries = vec![first.to_json()?];
        for v in 1..usize::try_from(version).unwrap_or(1) {
            let empty = LogEntry {
                changes: count(v),
                ..LogEntry::default()
            };
            entries.push(empty.to_json()?);
        }
        Ok(Write {
            head,
            entries,
            replace: true,
        })
    }

    /// The log's first entry, for a game being created.
    pub fn first_entry(&self) -> &str {
        self.entries.first().map_or("", String::as_str)
    }

    /// The store's log write: append the new entry, or replace the log with every entry.
    pub fn log(&self) -> LogWrite<'_> {
        if self.replace {
            LogWrite::Replace(&self.entries)
        } else {
            LogWrite::Append(self.first_entry())
        }
    }
}

/// The number of fields of a position in the notation; the options are the third.
const POSITION_FIELDS: usize = 6;

/// A position text with its options field replaced.
fn with_options_field(position: &str, options: &str) -> Result<String, String> {
    let mut fields: Vec<&str> = position.split_whitespace().collect();
    if fields.len() != POSITION_FIELDS {
        return Err(format!(
            "the stored position has {} fields, not {POSITION_FIELDS}",
            fields.len()
        ));
    }
    fields[2] = options;
    Ok(fields.join(" "))
}

#[cfg(test)]
mod tests {
    use std::error::Error;
    use std::sync::Arc;

    use halma_rules::{BoardKind, Game, GameSetup, MoveInput, Variant};

    use super::*;

    /// A game of one move on `board` and its header.
    fn one_move_game(board: BoardKind) -> Result<(Header, Game), Box<dyn Error>> {
        let setup = GameSetup {
            board,
            players: 2,
            options: halma_rules::RuleOptions::default(),
        };
        let variant = Arc::new(Variant::new(&setup)?);
        let first = variant.seat(0).ok_or("no seat 0")?;
        let mut game = Game::new(Arc::clone(&variant), first);
        let start = halma_rules::notation::format_position(&variant, game.position());
        let legal = game.legal_moves();
        let first_move = legal.first().ok_or("no legal move")?;
        game.play(&MoveInput::FromTo(first_move.mv.from, first_move.mv.to))?;
        let header = Header {
            created_at: 1_700_000_000,
            seats: vec![
                StoredSeat::new("Ada".into(), PlayedBy::Human, None),
                StoredSeat::new("Bo".into(), PlayedBy::Human, None),
            ],
            host_token: TokenHash::of("host"),
            seat_tokens: vec![TokenHash::of("seat 0"), TokenHash::of("seat 1")],
            ai_time_ms: 200,
            start_position: start,
            rematch_of: None,
            changes_by_version: vec![0, 1],
            handovers: Vec::new(),
            public: false,
            seat_changes: Vec::new(),
            started_elsewhere: false,
            in_log: false,
        };
        Ok((header, game))
    }

    /// The JSON of `header` and `game` as one whole document, as the service wrote games
    /// before the log.
    fn whole(header: &Header, game: &Game) -> Result<String, Box<dyn Error>> {
        let doc = Document {
            format: FORMAT_WHOLE,
            ..Document::new(header, game.snapshot())
        };
        Ok(doc.to_json()?)
    }

    /// The JSON of a document as an older service wrote it.
    fn as_format(json: &str, format: u32) -> Result<String, Box<dyn Error>> {
        let mut value: serde_json::Value = serde_json::from_str(json)?;
        value["format"] = format.into();
        Ok(serde_json::to_string(&value)?)
    }

    #[test]
    fn games_stored_before_the_grace_period_keep_the_rule_without_it() -> Result<(), Box<dyn Error>>
    {
        let (header, game) = one_move_game(BoardKind::Star)?;
        let old = as_format(&whole(&header, &game)?, 1)?;
        let doc = Document::read(&old, &[], 2)?;
        assert_eq!(doc.format, FORMAT_WHOLE);
        assert!(!doc.in_log);
        let (read, snapshot) = doc.into_parts();
        assert_eq!(snapshot.setup.options.anti_blocking_grace, Some(0));
        assert!(snapshot.position.contains(" anti_blocking_grace=0 "));
        assert!(read.start_position.contains(" anti_blocking_grace=0 "));
        let variant = Arc::new(Variant::new(&snapshot.setup)?);
        assert_eq!(variant.options().anti_blocking_grace, 0);
        let restored = Game::restore(variant, &snapshot)?;
        assert_eq!(restored.record().len(), 1);
        assert_eq!(restored.position().hash(), game.position().hash());
        // Written again, the document is whole and reads back unchanged.
        let again = Document {
            format: FORMAT_WHOLE,
            ..Document::new(&read, snapshot.clone())
        };
        assert_eq!(
            Document::read(&again.to_json()?, &[], 2)?.into_parts().1,
            snapshot
        );
        Ok(())
    }

    #[test]
    fn old_games_without_the_anti_blocking_rule_are_read_unchanged() -> Result<(), Box<dyn Error>> {
        // 8 x 8: the leave-home rule is in force instead of the anti-blocking rule.
        let (header, game) = one_move_game(BoardKind::Square8)?;
        let old = as_format(&whole(&header, &game)?, 1)?;
        let (_, snapshot) = Document::read(&old, &[], 2)?.into_parts();
        assert_eq!(snapshot, game.snapshot());
        Ok(())
    }

    #[test]
    fn documents_of_unknown_formats_are_refused() -> Result<(), Box<dyn Error>> {
        let (header, game) = one_move_game(BoardKind::Star)?;
        let future = as_format(&whole(&header, &game)?, 4)?;
        let err = Document::read(&future, &[], 2)
            .err()
            .ok_or("format 4 was accepted")?;
        assert!(err.contains("format 4"), "{err}");
        Ok(())
    }

    #[test]
    fn a_whole_document_splits_into_header_and_game_and_joins_back_unchanged(
    ) -> Result<(), Box<dyn Error>> {
        let (mut header, game) = one_move_game(BoardKind::Star)?;
        header.seats[1] = StoredSeat::new("AI level 3".into(), PlayedBy::Ai, Some(3));
        header.rematch_of = Some("earlier".into());
        let json = whole(&header, &game)?;
        let (read, snapshot) = Document::read(&json, &[], 2)?.into_parts();
        assert_eq!(snapshot, game.snapshot());
        assert_eq!(
            serde_json::to_string(&read.seats)?,
            serde_json::to_string(&header.seats)?
        );
        assert_eq!(
            whole(&read, &Game::restore(game.variant().clone(), &snapshot)?)?,
            json
        );
        // Documents written before `PlayedBy` stored the same words.
        assert!(json.contains(r#""kind":"human""#) && json.contains(r#""kind":"ai""#));
        Ok(())
    }

    /// A store's log as the writes leave it: appended to, or replaced whole.
    fn apply(log: &mut Vec<String>, write: &Write) {
        match write.log() {
            LogWrite::Append(entry) => log.push(entry.to_owned()),
            LogWrite::Replace(all) => *log = all.to_vec(),
        }
    }

    /// Plays `plies` random moves of `setup` (with seat `resigner` resigning after move 7 when
    /// given), writing after every change as the service does; checks after each write that
    /// head and log read back as the game, and returns the sizes of every head and entry.
    fn play_and_write(
        setup: &GameSetup,
        plies: usize,
        resigner: Option<u8>,
    ) -> Result<Vec<(usize, usize)>, Box<dyn Error>> {
        let variant = Arc::new(Variant::new(setup)?);
        let mut game = Game::new(Arc::clone(&variant), variant.seat(0).ok_or("no seat 0")?);
        let (mut header, _) = one_move_game(BoardKind::Star)?;
        let players = usize::from(setup.players);
        header.seats = (0..players)
            .map(|i| StoredSeat::new(format!("P{i}"), PlayedBy::Human, None))
            .collect();
        header.seat_tokens = (0..players)
            .map(|i| TokenHash::of(&i.to_string()))
            .collect();
        header.changes_by_version.clear();
        header.in_log = true;
        header.note_write(0);
        let created = Write::of(&header, &game, Logged::NOTHING, 1)?;
        let mut log = vec![created.first_entry().to_owned()];
        let mut sizes = Vec::new();
        let mut rng = halma_rules::SplitMix64::new(7);
        for ply in 0..plies {
            if game.is_over() {
                break;
            }
            let logged = Logged::of(&game);
            let legal = game.legal_moves();
            let pick = &legal[rng.below(legal.len() as u64) as usize];
            game.play(&MoveInput::Path(pick.path.clone()))?;
            if ply == 7 {
                if let Some(seat) = resigner {
                    game.resign(variant.seat(usize::from(seat)).ok_or("no seat")?)?;
                }
            }
            header.note_write(header.changes(&game));
            let version = log.len() as u64 + 1;
            let write = Write::of(&header, &game, logged, version)?;
            apply(&mut log, &write);
            sizes.push((write.head.len(), write.first_entry().len()));
            let (read, snapshot) = Document::read(&write.head, &log, version)?.into_parts();
            assert_eq!(snapshot, game.snapshot(), "ply {ply}");
            assert_eq!(read.changes_by_version, header.changes_by_version);
            // A reader holding the game needs only the head.
            let (_, state) = Document::read_head(&write.head)?.into_parts();
            assert_eq!(state, game.snapshot_state());
        }
        Ok(sizes)
    }

    #[test]
    fn head_and_log_read_back_as_the_game_on_every_board() -> Result<(), Box<dyn Error>> {
        let setups = [
            (BoardKind::Star, 6, None),
            (BoardKind::Star, 4, Some(2)),
            (BoardKind::Star, 2, None),
            // The repetition rule is in force here: its counts go through the log too.
            (BoardKind::Square8, 2, None),
            (BoardKind::Square16, 4, Some(1)),
        ];
        for (board, players, resigner) in setups {
            let setup = GameSetup {
                board,
                players,
                options: halma_rules::RuleOptions::default(),
            };
            let sizes = play_and_write(&setup, 120, resigner)?;
            assert!(sizes.len() > 20, "{board:?} {players}: {}", sizes.len());
        }
        Ok(())
    }

    #[test]
    fn a_write_does_not_grow_with_the_game() -> Result<(), Box<dyn Error>> {
        let setup = GameSetup {
            board: BoardKind::Star,
            players: 6,
            options: halma_rules::RuleOptions::default(),
        };
        let sizes = play_and_write(&setup, 600, None)?;
        assert_eq!(sizes.len(), 600);
        // Past the first 32 plies (the recent position keys fill up), a head is as long as
        // any other, give or take the digits of numbers; an entry is one move.
        let heads: Vec<usize> = sizes[40..].iter().map(|s| s.0).collect();
        let (shortest, longest) = (heads.iter().min(), heads.iter().max());
        let (Some(&shortest), Some(&longest)) = (shortest, longest) else {
            return Err("no sizes".into());
        };
        assert!(
            longest - shortest < 64,
            "heads of {shortest} to {longest} bytes"
        );
        assert!(
            sizes.iter().all(|s| s.1 < 200),
            "an entry of over 200 bytes"
        );
        Ok(())
    }

    #[test]
    fn a_whole_game_moves_into_the_log_with_its_next_write() -> Result<(), Box<dyn Error>> {
        let (mut header, mut game) = one_move_game(BoardKind::Square8)?;
        // Stored whole at version 2, as before the log.
        let (read, snapshot) = Document::read(&whole(&header, &game)?, &[], 2)?.into_parts();
        assert!(!read.in_log);
        assert_eq!(snapshot, game.snapshot());
        let logged = Logged::of(&game);
        let legal = game.legal_moves();
        game.play(&MoveInput::Path(legal[0].path.clone()))?;
        header.note_write(header.changes(&game));
        let write = Write::of(&header, &game, logged, 3)?;
        let mut log = Vec::new();
        apply(&mut log, &write);
        assert_eq!(log.len(), 3, "one entry per version");
        let (moved, snapshot) = Document::read(&write.head, &log, 3)?.into_parts();
        assert!(moved.in_log);
        assert_eq!(snapshot, game.snapshot());
        assert_eq!(moved.changes_by_version, vec![0, 1, 2]);
        // A head that holds what belongs in the log, or a log that disagrees with the
        // version, is refused.
        assert!(Document::read(&write.head, &log[..2], 3).is_err());
        assert!(Document::read(&as_format(&whole(&header, &game)?, FORMAT)?, &log, 3).is_err());
        Ok(())
    }
}
