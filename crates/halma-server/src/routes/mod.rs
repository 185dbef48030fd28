//! The operational routes: health checks, API documentation and the web client.
//!
//! The game routes join these in [`configure`].

pub mod analysis;
pub mod boards;
pub mod docs;
pub mod events;
pub mod games;
pub mod health;
pub mod lobby;
pub mod play;
pub mod seats;
pub mod stats;

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::web::{self, ServiceConfig};
use actix_web::{FromRequest, Handler, HttpResponse, Resource, Responder, ResponseError as _};
use utoipa::openapi::OpenApi;

use crate::error::ApiError;

/// Registers every route; `openapi` is the document served at `/openapi.json`.
pub fn configure(config: &mut ServiceConfig, openapi: OpenApi) {
    config
        .service(resource("/healthz").get(health::healthz))
        .service(resource("/readyz").get(health::readyz))
        .service(resource("/metrics").get(crate::observability::scrape))
        .configure(games::configure)
        .configure(seats::configure)
        .configure(lobby::configure)
        .configure(stats::configure)
        .configure(boards::configure)
        .configure(play::configure)
        .configure(analysis::configure)
        .configure(|config| docs::configure(config, openapi));
}

/// A resource whose routes are added method by method, so that it knows its methods: any
/// other method is answered `405 Method Not Allowed` with an `Allow` header naming them (RFC
/// 9110, section 15.5.6), and a problem document (`method_not_allowed`) like every other error.
///
/// ```ignore
/// config.service(resource("/v1/games/{id}").get(get_game).delete(cancel_game));
/// ```
pub(crate) fn resource(path: &str) -> MethodRoutes {
    MethodRoutes {
        resource: web::resource(path),
        methods: Vec::new(),
    }
}

/// A resource being assembled by [`resource`]; register it with `ServiceConfig::service`.
pub(crate) struct MethodRoutes {
    resource: Resource,
    methods: Vec<Method>,
}

impl MethodRoutes {
    /// Answers `GET` with `handler`.
    pub(crate) fn get<F, Args>(self, handler: F) -> Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::GET, handler)
    }

    /// Answers `HEAD` with `handler`.
    pub(crate) fn head<F, Args>(self, handler: F) -> Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::HEAD, handler)
    }

    /// Answers `POST` with `handler`.
    pub(crate) fn post<F, Args>(self, handler: F) -> Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::POST, handler)
    }

    /// Answers `DELETE` with `handler`.
    pub(crate) fn delete<F, Args>(self, handler: F) -> Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::DELETE, handler)
    }

    fn method<F, Args>(mut self, method: Method, handler: F) -> Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.resource = self.resource.route(web::method(method.clone()).to(handler));
        self.methods.push(method);
        self
    }
}

impl HttpServiceFactory for MethodRoutes {
    fn register(self, config: &mut AppService) {
        let allow = allow_header(&self.methods);
        self.resource
            .default_service(web::to(move || {
                let allow = allow.clone();
                async move { method_not_allowed(allow) }
            }))
            .register(config);
    }
}

/// The value of an `Allow` header listing `methods`: `GET, DELETE`.
fn allow_header(methods: &[Method]) -> HeaderValue {
    let list = methods
        .iter()
        .map(Method::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    // Method names are tokens, always valid in a header value.
    HeaderValue::from_str(&list).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// `405` as a problem document, with `allow` as its `Allow` header.
fn method_not_allowed(allow: HeaderValue) -> HttpResponse {
    let mut response = ApiError::MethodNotAllowed.error_response();
    response.headers_mut().insert(header::ALLOW, allow);
    response
}
