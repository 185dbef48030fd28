//! Black-box tests of the halma service: the real application on port 0, driven only through
//! the `halma-client` SDK, once over the in-memory store and once over a private Redis
//! (`redis-server` started per test on a free port; two service instances share it, so the
//! racing writers really go through Redis).
//!
//! Every scenario runs against both stores: `memory::<scenario>` and `redis::<scenario>`. The
//! Redis variants need `redis-server` on the `PATH`: without it they fail, saying so (leave
//! them out with `-- --skip redis::`). The Redis and application helpers are in
//! `halma-testkit`.
//!
//! ```text
//! cargo test -p halma-blackbox                       # everything
//! cargo test -p halma-blackbox -- redis::            # one store
//! cargo test -p halma-blackbox -- --skip redis::     # without redis-server
//! cargo test -p halma-blackbox -- --ignored          # also the standalone build of the client
//! HALMA_BLACKBOX_SEED=42 cargo test -p halma-blackbox   # other random moves (a failure names its seed)
//! ```

// Tests fail by panicking: unwrapping is how a test says "this must succeed".
#![allow(clippy::unwrap_used)]

mod analysis;
mod checks;
mod errors;
mod events;
mod games;
mod imports;
mod invitations;
mod pictures;
mod race;
mod rng;
mod server;
mod sessions;
mod setups;
mod standalone;
mod stats;

/// Declares each scenario (an `async fn(&TestServer)`) as one test per store, in the modules
/// `memory` and `redis`.
macro_rules! on_both_stores {
    ($($name:ident => $scenario:path,)*) => {
        mod memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let server = crate::server::TestServer::memory().await;
                    $scenario(&server).await;
                }
            )*
        }
        mod redis {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let server = crate::server::TestServer::redis(stringify!($name)).await;
                    $scenario(&server).await;
                }
            )*
        }
    };
}

on_both_stores! {
    star_2_players => crate::games::star_2_players,
    star_3_players => crate::games::star_3_players,
    star_4_players_with_ai_seats => crate::games::star_4_players_with_ai_seats,
    star_6_players => crate::games::star_6_players,
    star_arm_size_3 => crate::games::star_arm_size_3,
    square16_2_players => crate::games::square16_2_players,
    square16_4_players_with_ai_seats => crate::games::square16_4_players_with_ai_seats,
    square10 => crate::games::square10,
    square8 => crate::games::square8,
    ai_plays_every_seat => crate::games::ai_plays_every_seat,
    error_paths => crate::errors::error_paths,
    invalid_setups => crate::errors::invalid_setups,
    two_clients_race_on_one_version => crate::race::two_clients_race_on_one_version,
    etags_and_long_polling => crate::sessions::etags_and_long_polling,
    boards_rules_health_and_rematch => crate::sessions::boards_rules_health_and_rematch,
    two_listeners_see_a_whole_game_alike => crate::events::two_listeners_see_a_whole_game_alike,
    a_listener_that_reconnects_gets_exactly_what_it_missed =>
        crate::events::a_listener_that_reconnects_gets_exactly_what_it_missed,
    a_resignation_lets_the_others_finish => crate::events::a_resignation_lets_the_others_finish,
    with_two_players_a_resignation_ends_the_game =>
        crate::events::with_two_players_a_resignation_ends_the_game,
    seats_handed_to_the_ai_finish_the_game =>
        crate::events::seats_handed_to_the_ai_finish_the_game,
    any_ply_can_be_seen => crate::sessions::any_ply_can_be_seen,
    a_four_seat_game_filled_through_invitations_is_played_to_the_end =>
        crate::invitations::a_four_seat_game_filled_through_invitations_is_played_to_the_end,
    public_games_wait_in_the_lobby => crate::invitations::public_games_wait_in_the_lobby,
    the_host_cancels_a_waiting_game => crate::invitations::the_host_cancels_a_waiting_game,
    statistics_count_each_finished_game_once =>
        crate::stats::statistics_count_each_finished_game_once,
    export_then_import_gives_the_same_game_on_every_board =>
        crate::imports::export_then_import_gives_the_same_game_on_every_board,
    bad_records_are_refused_with_the_move_at_fault =>
        crate::imports::bad_records_are_refused_with_the_move_at_fault,
    positions_name_what_is_wrong => crate::imports::positions_name_what_is_wrong,
    analysis_agrees_with_the_game_endpoints =>
        crate::analysis::analysis_agrees_with_the_game_endpoints,
    analysis_errors => crate::analysis::analysis_errors,
}

/// The board pictures in a browser: once, over the in-memory store (the picture does not
/// depend on the store). Needs `chromium`: fails without it under `CI=true`, else skips,
/// saying so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_pictures_render_in_a_browser() {
    let server = crate::server::TestServer::memory().await;
    crate::pictures::board_pictures_render_in_a_browser(&server).await;
}
