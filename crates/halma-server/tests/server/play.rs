//! The web client at `/play/`: the page and its assets from the binary, with their content
//! types, caching headers and revalidation; `/play` redirects keeping the query.

use halma_server::config::Config;
use halma_testkit::spawn_app;
use reqwest::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH, LOCATION,
};
use reqwest::{redirect, StatusCode};

fn header(response: &reqwest::Response, name: reqwest::header::HeaderName) -> String {
    response
        .headers()
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn the_web_client_is_served_at_play() {
    let base = spawn_app(Config::default()).await;
    let client = reqwest::Client::builder()
        .redirect(redirect::Policy::none())
        .build()
        .unwrap();

    // `/play` sends the browser to `/play/`, keeping the query (an `?api=` address).
    let response = client
        .get(format!("{base}/play?api=x"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(header(&response, LOCATION), "/play/?api=x");

    let page = client.get(format!("{base}/play/")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(header(&page, CONTENT_TYPE), "text/html; charset=utf-8");
    assert_eq!(header(&page, CACHE_CONTROL), "no-cache");
    assert!(header(&page, CONTENT_SECURITY_POLICY).contains("default-src 'self'"));
    let etag = header(&page, ETAG);
    assert!(etag.starts_with('"') && etag.len() > 10, "{etag}");
    let html = page.text().await.unwrap();
    assert!(
        !html.contains("https://"),
        "the page loads something from elsewhere"
    );
    assert!(
        !html.contains("/src/main.ts"),
        "the page is not the built one"
    );

    // The page names its script and stylesheet relative to itself, under assets/.
    let assets: Vec<&str> = html
        .split('"')
        .filter(|part| part.starts_with("./assets/"))
        .collect();
    let script = assets
        .iter()
        .find(|a| a.ends_with(".js"))
        .expect("a script");
    let style = assets
        .iter()
        .find(|a| a.ends_with(".css"))
        .expect("a stylesheet");
    for (asset, content_type) in [
        (script, "text/javascript; charset=utf-8"),
        (style, "text/css; charset=utf-8"),
    ] {
        let url = format!("{base}/play/{}", asset.trim_start_matches("./"));
        let response = client.get(&url).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{url}");
        assert_eq!(header(&response, CONTENT_TYPE), content_type);
        assert_eq!(
            header(&response, CACHE_CONTROL),
            "public, max-age=31536000, immutable"
        );
        assert!(response.bytes().await.unwrap().len() > 1000);
    }

    // An unchanged page is not sent again.
    let again = client
        .get(format!("{base}/play/index.html"))
        .header(IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(header(&again, ETAG), etag);
    assert!(again.bytes().await.unwrap().is_empty());

    // HEAD answers the head only.
    let head = client.head(format!("{base}/play/")).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(header(&head, CONTENT_TYPE), "text/html; charset=utf-8");

    // A file the client does not have is a problem document.
    let missing = client
        .get(format!("{base}/play/assets/no-such-file.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, CONTENT_TYPE), "application/problem+json");
    let traversal = client
        .get(format!("{base}/play/..%2F..%2FCargo.toml"))
        .send()
        .await
        .unwrap();
    assert_eq!(traversal.status(), StatusCode::NOT_FOUND);
}
