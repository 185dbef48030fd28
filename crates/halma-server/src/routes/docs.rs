//! The OpenAPI document (`/openapi.json`) and interactive documentation (`/docs`).
//!
//! Swagger UI's files are compiled into the binary (`utoipa-swagger-ui` with its `vendored`
//! feature), so the documentation works without internet access.

use actix_web::web::{self, ServiceConfig};
use utoipa::openapi::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

/// Path of the OpenAPI document.
pub const OPENAPI_PATH: &str = "/openapi.json";
/// Path of the interactive documentation.
pub const DOCS_PATH: &str = "/docs/";

/// Registers `/openapi.json`, `/docs/` with Swagger UI's files, and a redirect from `/docs`.
pub fn configure(config: &mut ServiceConfig, openapi: OpenApi) {
    config
        .service(web::redirect("/docs", DOCS_PATH))
        .service(SwaggerUi::new("/docs/{_:.*}").url(OPENAPI_PATH, openapi));
}
