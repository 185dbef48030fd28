//! The `halma-server` binary: reads the configuration from the environment and serves.

use std::error::Error;
use std::process::ExitCode;

use halma_server::config::Config;
use halma_server::startup::Application;
use halma_server::telemetry;

/// The binary's allocator (the library leaves the choice to its user).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(err) => {
            eprintln!("halma-server: {err}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(err) = telemetry::init(&config.log_filter, config.log_format) {
        eprintln!("halma-server: {err}");
        return ExitCode::FAILURE;
    }
    match actix_web::rt::System::new().block_on(serve(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let mut message = err.to_string();
            let mut source = err.source();
            while let Some(cause) = source {
                message = format!("{message}: {cause}");
                source = cause.source();
            }
            tracing::error!("{message}");
            eprintln!("halma-server: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(config: Config) -> Result<(), Box<dyn Error>> {
    Application::build(config)
        .await?
        .run_until_stopped()
        .await?;
    Ok(())
}
