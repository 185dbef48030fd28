//! The stored form of a game: the rules crate's snapshot plus the seats, the token hashes and
//! the AI settings. Stored as JSON; every read checks it.
//!
//! Once read, a document splits into its [`Header`] and the snapshot the game is restored
//! from; requests (and the cache of restored games) keep only the header and the game.

use halma_rules::GameSnapshot;
use serde::{Deserialize, Serialize};

use crate::token::TokenHash;

/// The document format written by this version of the service.
pub const FORMAT: u32 = 2;

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
        };
        (header, self.game)
    }

    /// Reads a stored document.
    ///
    /// # Errors
    /// A message saying what is wrong with it.
    pub fn parse(text: &str) -> Result<Document, String> {
        let mut doc: Document =
            serde_json::from_str(text).map_err(|e| format!("not a game document: {e}"))?;
        match doc.format {
            FORMAT => {}
            FORMAT_WITHOUT_GRACE => doc.pin_no_grace()?,
            other => {
                return Err(format!(
                    "document format {other} is not {FORMAT_WITHOUT_GRACE} or {FORMAT}"
                ))
            }
        }
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
        Ok(doc)
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
        self.format = FORMAT;
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
        };
        Ok((header, game))
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
        let old = as_format(&Document::new(&header, game.snapshot()).to_json()?, 1)?;
        let doc = Document::parse(&old)?;
        assert_eq!(doc.format, FORMAT);
        let (read, snapshot) = doc.into_parts();
        assert_eq!(snapshot.setup.options.anti_blocking_grace, Some(0));
        assert!(snapshot.position.contains(" anti_blocking_grace=0 "));
        assert!(read.start_position.contains(" anti_blocking_grace=0 "));
        let variant = Arc::new(Variant::new(&snapshot.setup)?);
        assert_eq!(variant.options().anti_blocking_grace, 0);
        let restored = Game::restore(variant, &snapshot)?;
        assert_eq!(restored.record().len(), 1);
        assert_eq!(restored.position().hash(), game.position().hash());
        // Written again, the document is of the current format and reads back unchanged.
        let again = Document::new(&read, snapshot.clone()).to_json()?;
        assert_eq!(Document::parse(&again)?.into_parts().1, snapshot);
        Ok(())
    }

    #[test]
    fn old_games_without_the_anti_blocking_rule_are_read_unchanged() -> Result<(), Box<dyn Error>> {
        // 8 x 8: the leave-home rule is in force instead of the anti-blocking rule.
        let (header, game) = one_move_game(BoardKind::Square8)?;
        let old = as_format(&Document::new(&header, game.snapshot()).to_json()?, 1)?;
        let (_, snapshot) = Document::parse(&old)?.into_parts();
        assert_eq!(snapshot, game.snapshot());
        Ok(())
    }

    #[test]
    fn documents_of_unknown_formats_are_refused() -> Result<(), Box<dyn Error>> {
        let (header, game) = one_move_game(BoardKind::Star)?;
        let future = as_format(&Document::new(&header, game.snapshot()).to_json()?, 3)?;
        let err = Document::parse(&future)
            .err()
            .ok_or("format 3 was accepted")?;
        assert!(err.contains("format 3"), "{err}");
        Ok(())
    }

    #[test]
    fn a_document_splits_into_header_and_game_and_joins_back_unchanged(
    ) -> Result<(), Box<dyn Error>> {
        let (mut header, game) = one_move_game(BoardKind::Star)?;
        header.seats[1] = StoredSeat::new("AI level 3".into(), PlayedBy::Ai, Some(3));
        header.rematch_of = Some("earlier".into());
        let json = Document::new(&header, game.snapshot()).to_json()?;
        let (read, snapshot) = Document::parse(&json)?.into_parts();
        assert_eq!(snapshot, game.snapshot());
        assert_eq!(
            serde_json::to_string(&read.seats)?,
            serde_json::to_string(&header.seats)?
        );
        assert_eq!(Document::new(&read, snapshot).to_json()?, json);
        // Documents written before `PlayedBy` stored the same words.
        assert!(json.contains(r#""kind":"human""#) && json.contains(r#""kind":"ai""#));
        Ok(())
    }
}
