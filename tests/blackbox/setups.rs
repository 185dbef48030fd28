//! The game setups several scenarios start from.

use halma_client::types;

/// A game on the star for two players, seat 0 moving first, no AI seats.
pub fn two_player_star() -> types::CreateGameRequest {
    types::CreateGameRequest {
        public: None,
        ai_time_ms: None,
        board: Some(types::BoardName::Star),
        first_seat: Some(0),
        options: None,
        players: Some(2),
        position: None,
        record: None,
        record_json: None,
        seats: Vec::new(),
    }
}
