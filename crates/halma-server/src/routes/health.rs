//! Liveness (`/healthz`) and readiness (`/readyz`).

use actix_web::web;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::problem::Problem;
use crate::state::AppState;

/// The answer of `/healthz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Liveness {
    /// Always `ok`.
    #[schema(example = "ok")]
    pub status: String,
}

/// The answer of `/readyz` when the instance can serve games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Readiness {
    /// Always `ready`.
    #[schema(example = "ready")]
    pub status: String,
    /// The store in use: `memory` or `redis`.
    #[schema(example = "redis")]
    pub store: String,
}

/// Liveness: answers 200 whenever the process runs.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    operation_id = "healthz",
    responses((status = 200, description = "The process is running.", body = Liveness))
)]
pub async fn healthz() -> web::Json<Liveness> {
    web::Json(Liveness {
        status: "ok".to_owned(),
    })
}

/// Readiness: answers 200 only when the game store answers a ping.
///
/// # Errors
/// [`ApiError::StoreUnavailable`] (503 with `Retry-After`) when the store does not answer.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    operation_id = "readyz",
    description = "Answers 503 (problem `store_unavailable`, with `Retry-After`) while the store \
        does not answer, and 200 again as soon as it does. Use it as the readiness probe; \
        `/healthz` is the liveness probe.",
    responses(
        (
            status = 200,
            description = "The store answers: this instance can serve games.",
            body = Readiness
        ),
        (
            status = 503,
            description = "The store does not answer.",
            body = Problem,
            content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before retrying."))
        )
    )
)]
pub async fn readyz(state: web::Data<AppState>) -> Result<web::Json<Readiness>, ApiError> {
    state
        .store
        .ping()
        .await
        .map_err(ApiError::StoreUnavailable)?;
    Ok(web::Json(Readiness {
        status: "ready".to_owned(),
        store: state.store.kind().as_str().to_owned(),
    }))
}
