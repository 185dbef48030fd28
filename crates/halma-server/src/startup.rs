//! The application: binds the listener, assembles the routes, runs the server.

use std::net::TcpListener;
use std::time::Duration;

use actix_cors::Cors;
use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::{from_fn, ErrorHandlers};
use actix_web::{web, App, HttpServer};
use utoipa::OpenApi as _;

use crate::config::{Config, CorsOrigins, RedisUrl};
use crate::error::ApiError;
use crate::extractors;
use crate::limits;
use crate::observability;
use crate::openapi::ApiDoc;
use crate::problem::problem_fallback;
use crate::routes;
use crate::state::{AppState, Shutdown};
use crate::store::{Store, StoreError};
use crate::telemetry::log_request;

/// A bound, not yet running, server.
///
/// ```no_run
/// use halma_server::{config::Config, startup::Application};
/// # async fn start() -> Result<(), Box<dyn std::error::Error>> {
/// let config = Config { bind: "127.0.0.1:0".into(), ..Config::default() };
/// let app = Application::build(config).await?;
/// println!("listening on port {}", app.port());
/// app.run_until_stopped().await?;
/// # Ok(())
/// # }
/// ```
pub struct Application {
    port: u16,
    server: Server,
    shutdown: Shutdown,
    grace: Duration,
}

impl Application {
    /// Opens the configured store and binds `config.bind`. The store need not answer yet:
    /// `/readyz` reports 503 until it does.
    ///
    /// Must be awaited inside a Tokio runtime (the actix runtime is one).
    ///
    /// # Errors
    /// [`StartupError`] when the store cannot be set up or the address cannot be bound.
    pub async fn build(config: Config) -> Result<Self, StartupError> {
        let store = Store::from_config(&config)
            .await
            .map_err(StartupError::Store)?;
        match &config.redis_url {
            Some(url) => {
                tracing::info!(redis = %url, key_prefix = %config.key_prefix, "game store: Redis")
            }
            None if !config.redis_cluster.is_empty() => {
                let nodes: Vec<String> = config
                    .redis_cluster
                    .iter()
                    .map(RedisUrl::redacted)
                    .collect();
                tracing::info!(nodes = ?nodes, key_prefix = %config.key_prefix, "game store: Redis Cluster");
            }
            None => tracing::info!(
                "game store: in memory (set REDIS_URL to share games between instances)"
            ),
        }
        if let Err(err) = store.ping().await {
            tracing::warn!(
                error = %err,
                "the game store does not answer yet; /readyz reports 503 until it does"
            );
        }
        Self::build_with_store(&config, store)
    }

    /// Binds `config.bind` and serves `store`.
    ///
    /// # Errors
    /// [`StartupError::Bind`] when the address cannot be bound.
    pub fn build_with_store(config: &Config, store: Store) -> Result<Self, StartupError> {
        let listener = TcpListener::bind(&config.bind).map_err(|source| StartupError::Bind {
            address: config.bind.clone(),
            source,
        })?;
        let address = listener.local_addr().map_err(StartupError::Io)?;
        observability::install();
        let state = web::Data::new(AppState::new(store, config));
        let shutdown = state.shutdown.clone();
        let server = HttpServer::new(move || app(state.clone()))
            // Signals are ours (see `run_until_stopped`): event streams close first.
            .disable_signals()
            .shutdown_timeout(config.shutdown_grace.as_secs())
            .listen(listener)
            .map_err(StartupError::Io)?
            .run();
        tracing::info!(
            %address,
            game_ttl_secs = config.game_ttl.as_secs(),
            max_body_bytes = config.max_body_bytes,
            ai_max_ms = config.ai_max_time.as_millis(),
            game_cache = config.game_cache,
            store_timeout_ms = config.store_timeout.as_millis(),
            shutdown_grace_secs = config.shutdown_grace.as_secs(),
            "listening"
        );
        Ok(Self {
            port: address.port(),
            server,
            shutdown,
            grace: config.shutdown_grace,
        })
    }

    /// The port the server listens on (useful when the configuration asked for port 0).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves requests until the server is stopped. SIGTERM (or SIGINT) stops it gracefully:
    /// the listener closes, open event streams end with a retry hint (so their clients
    /// reconnect, to another instance behind a load balancer), and requests in flight have
    /// the configured grace period to finish before their connections are closed.
    ///
    /// # Errors
    /// An I/O error of the server.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let Self {
            server,
            shutdown,
            grace,
            ..
        } = self;
        let handle = server.handle();
        let mut server = std::pin::pin!(server);
        tokio::select! {
            result = &mut server => return result,
            signal = termination() => {
                tracing::info!(signal, grace_secs = grace.as_secs(), "shutting down: closing event streams, finishing requests");
            }
        }
        shutdown.begin();
        // The command is sent now; the server carries it out while it is awaited below.
        drop(handle.stop(true));
        let result = server.await;
        tracing::info!("stopped");
        result
    }
}

/// Waits for SIGTERM or SIGINT; returns the signal's name. Waits forever when the signals
/// cannot be watched (the error is logged).
#[cfg(unix)]
async fn termination() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let watched = signal(SignalKind::terminate())
        .and_then(|term| Ok((term, signal(SignalKind::interrupt())?)));
    match watched {
        Ok((mut term, mut int)) => tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
        },
        Err(err) => {
            tracing::error!(error = %err, "cannot watch SIGTERM and SIGINT; stop the process with SIGKILL");
            std::future::pending().await
        }
    }
}

/// Waits for Ctrl-C (the only termination signal tokio watches off Unix).
#[cfg(not(unix))]
async fn termination() -> &'static str {
    if let Err(err) = tokio::signal::ctrl_c().await {
        tracing::error!(error = %err, "cannot watch Ctrl-C; stop the process otherwise");
        std::future::pending::<()>().await;
    }
    "Ctrl-C"
}

/// The actix application for `state`: shared data, extractor limits and their problem
/// documents, every route, a problem-document 404 for unknown paths, the problem fallback
/// for errors actix answers itself, browser access (CORS) and request logging.
pub fn app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let limit = state.max_body_bytes;
    let cors = cors(&state.cors_origins);
    App::new()
        .app_data(state)
        .app_data(extractors::json_config(limit))
        .app_data(extractors::payload_config(limit))
        .app_data(extractors::query_config())
        .app_data(extractors::path_config())
        .configure(|config| routes::configure(config, ApiDoc::openapi()))
        .default_service(web::to(route_not_found))
        .wrap(ErrorHandlers::new().default_handler(problem_fallback))
        // Inside CORS: preflights never spend from a bucket, and a 429 carries the CORS
        // headers a page needs to read it.
        .wrap(from_fn(limits::limit_requests))
        .wrap(cors)
        .wrap(from_fn(log_request))
}

/// Seconds a browser may keep a preflight's answer.
const CORS_MAX_AGE_SECS: usize = 3600;

/// The CORS policy: preflights answered for the configured origins, every method and request
/// header of the API allowed, and the response headers scripts need (`ETag` for versions,
/// `Retry-After`, `Location`, `X-Request-Id`) exposed. No credentials: the API authorises by bearer token.
fn cors(origins: &CorsOrigins) -> Cors {
    use actix_web::http::header;
    let cors = match origins {
        CorsOrigins::Any => Cors::default().allow_any_origin().send_wildcard(),
        CorsOrigins::List(list) => list
            .iter()
            .fold(Cors::default(), |cors, origin| cors.allowed_origin(origin)),
    };
    cors.allowed_methods(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])
        .allow_any_header()
        .expose_headers([
            header::ETAG,
            header::RETRY_AFTER,
            header::LOCATION,
            crate::telemetry::REQUEST_ID,
        ])
        .max_age(CORS_MAX_AGE_SECS)
}

async fn route_not_found() -> Result<actix_web::HttpResponse, ApiError> {
    Err(ApiError::RouteNotFound)
}

/// Why the application could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The game store could not be set up.
    #[error("cannot set up the game store")]
    Store(#[source] StoreError),
    /// The listen address could not be bound.
    #[error("cannot listen on {address}")]
    Bind {
        /// The configured address.
        address: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Another I/O error while setting up the server.
    #[error("cannot set up the server")]
    Io(#[source] std::io::Error),
}
