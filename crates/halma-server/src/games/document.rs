//! The stored form of a game: the rules crate's snapshot plus the seats, the token hashes and
//! the AI settings. Stored as JSON; every read checks it.

use halma_rules::GameSnapshot;
use serde::{Deserialize, Serialize};

use crate::api::SeatKind;
use crate::token::TokenHash;

/// The document format written by this version of the service.
pub const FORMAT: u32 = 1;

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredSeat {
    /// Display name.
    pub name: String,
    /// Human or AI.
    pub kind: SeatKind,
    /// AI level, for AI seats.
    pub level: Option<u8>,
}

/// A game as stored.
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
    /// The game.
    pub game: GameSnapshot,
}

impl Document {
    /// Reads a stored document.
    ///
    /// # Errors
    /// A message saying what is wrong with it.
    pub fn parse(text: &str) -> Result<Document, String> {
        let doc: Document =
            serde_json::from_str(text).map_err(|e| format!("not a game document: {e}"))?;
        if doc.format != FORMAT {
            return Err(format!("document format {} is not {FORMAT}", doc.format));
        }
        let players = usize::from(doc.game.setup.players);
        if doc.seats.len() != players || doc.seat_tokens.len() != players {
            return Err(format!(
                "{} seats and {} seat tokens for {players} players",
                doc.seats.len(),
                doc.seat_tokens.len()
            ));
        }
        Ok(doc)
    }

    /// The document as JSON.
    ///
    /// # Errors
    /// Serialisation errors (none are expected for this type).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
}
