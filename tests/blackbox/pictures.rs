//! The board picture as the contract describes it: `image/svg+xml`, cacheable by version, with
//! its query options; and rendered by a real browser (headless Chromium), whose screenshot
//! must show the board: its background, and every army's colour.

use futures_util::TryStreamExt as _;
use halma_client::reqwest::header::{CACHE_CONTROL, CONTENT_TYPE};
use halma_client::reqwest::StatusCode;
use halma_client::{etag_version, types, GameSession, HalmaError};
use halma_testkit::chromium;

use crate::server::TestServer;

/// The colour most of a picture shows (halma-render's page around the star, the light
/// squares of a square board) and the armies' colours (its Okabe–Ito palette).
const PAGE: &str = "#FAF7F0";
const LIGHT_SQUARE: &str = "#F3E4C6";
const ARMIES: [&str; 6] = [
    "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
];

/// The side of each picture in the screenshot, and the gap between them.
const TILE: u32 = 320;

async fn picture(
    session: &GameSession,
    bottom: Option<u8>,
    names: bool,
) -> (Vec<u8>, halma_client::reqwest::header::HeaderMap) {
    let mut request = session
        .client()
        .get_board_picture()
        .id(session.id())
        .size(TILE)
        .names(names);
    if let Some(seat) = bottom {
        request = request.bottom(seat);
    }
    let answer = request.send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let headers = answer.headers().clone();
    let bytes: Vec<u8> = answer
        .into_inner()
        .into_inner()
        .map_ok(|chunk| chunk.to_vec())
        .try_concat()
        .await
        .unwrap();
    (bytes, headers)
}

pub async fn board_pictures_render_in_a_browser(server: &TestServer) {
    let client = server.client();
    let mut tiles: Vec<(String, Vec<u8>, usize)> = Vec::new();
    for (board, players) in [
        (types::BoardName::Star, 6),
        (types::BoardName::Star, 2),
        (types::BoardName::Square16, 4),
        (types::BoardName::Square10, 2),
        (types::BoardName::Square8, 2),
    ] {
        let request = types::CreateGameRequest {
            board: Some(board),
            players: Some(players),
            ..crate::setups::two_player_star()
        };
        let (mut session, _) = GameSession::create(client, request).await.unwrap();
        let first = session.legal_moves().await.unwrap().moves[0].path.clone();
        session.play_path(first).await.unwrap();
        let (svg, headers) = picture(&session, Some(players - 1), true).await;
        // The contract: SVG, versioned, to be revalidated.
        assert_eq!(
            headers.get(CONTENT_TYPE).unwrap().to_str().unwrap(),
            "image/svg+xml"
        );
        assert_eq!(etag_version(&headers), Some(session.version()));
        assert_eq!(headers.get(CACHE_CONTROL).unwrap(), "no-cache");
        let text = String::from_utf8(svg.clone()).unwrap();
        assert!(text.contains("<svg") && text.contains(r#"class="names""#));
        assert!(
            text.contains("player 2 to move"),
            "the title counts players from 1"
        );
        // Unchanged since that version: 304 (an unexpected status for the generated client).
        let again = client
            .get_board_picture()
            .id(session.id())
            .if_none_match(halma_client::entity_tag(session.version()))
            .send()
            .await
            .map_err(HalmaError::from);
        assert!(matches!(
            again,
            Err(HalmaError::UnexpectedStatus(StatusCode::NOT_MODIFIED))
        ));
        // Turned for another seat and without names, it is another picture.
        let (plain, _) = picture(&session, None, false).await;
        assert_ne!(plain, svg);
        let armies = session.game().armies.len();
        tiles.push((format!("{board:?}-{players}.svg"), svg, armies));
    }

    let Some(browser) = chromium::find() else {
        return;
    };
    // Two controls the checks must reject: the first picture cut in half (a broken image) and
    // an empty one (a blank image).
    let (_, first, armies) = tiles[0].clone();
    let broken = first[..first.len() / 2].to_vec();
    let blank = br##"<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320"><rect width="320" height="320" fill="#FFFFFF"/></svg>"##.to_vec();
    let controls = [
        ("broken.svg".to_owned(), broken, armies),
        ("blank.svg".to_owned(), blank, armies),
    ];
    let all: Vec<&(String, Vec<u8>, usize)> = tiles.iter().chain(&controls).collect();
    let width = TILE * u32::try_from(all.len()).unwrap();
    let images: String = all
        .iter()
        .enumerate()
        .map(|(i, (name, _, _))| {
            format!(
                r#"<img src="{name}" style="position:absolute;left:{}px;top:0">"#,
                u32::try_from(i).unwrap() * TILE
            )
        })
        .collect();
    let page = format!(
        "<!doctype html><html><body style=\"margin:0;background:#000\">{images}</body></html>"
    );
    let files: Vec<(&str, &[u8])> = all
        .iter()
        .map(|(name, svg, _)| (name.as_str(), svg.as_slice()))
        .collect();
    let shot = chromium::screenshot(&browser, &page, &files, width, TILE);
    assert_eq!((shot.width, shot.height), (width, TILE));
    for (i, (name, _, armies)) in all.iter().enumerate() {
        let tile = (u32::try_from(i).unwrap() * TILE, 0, TILE, TILE);
        let main = if name.starts_with("Square") {
            LIGHT_SQUARE
        } else {
            PAGE
        };
        let faults = faults(&shot, tile, main, *armies);
        if i < tiles.len() {
            assert!(faults.is_empty(), "{name}: {faults:?}");
        } else {
            assert!(
                !faults.is_empty(),
                "{name}: the checks did not see it is no board"
            );
        }
    }
}

/// What is wrong with the picture in `tile` of the screenshot: nothing for a board drawn with
/// `main` as its most frequent colour and `armies` armies.
fn faults(
    shot: &chromium::Screenshot,
    tile: (u32, u32, u32, u32),
    main: &str,
    armies: usize,
) -> Vec<String> {
    let mut faults = Vec::new();
    let area = (tile.2 * tile.3) as usize;
    // A blank or broken image (a black tile, or the small broken-image icon) has hardly any
    // of the board's main colour, few colours at all, and no pieces.
    let background = shot.count_near(tile, chromium::rgb(main), 3);
    if background <= area / 20 {
        faults.push(format!(
            "{background} of {area} pixels show the main colour {main}"
        ));
    }
    let colours = shot.distinct_colours(tile);
    if colours <= 50 {
        faults.push(format!("only {colours} colours"));
    }
    for (army, colour) in ARMIES.iter().enumerate().take(armies) {
        let pixels = shot.count_near(tile, chromium::rgb(colour), 12);
        if pixels <= 100 {
            faults.push(format!(
                "army {army}'s colour {colour} on only {pixels} pixels"
            ));
        }
    }
    faults
}
