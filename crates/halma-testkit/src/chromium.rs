//! Headless Chromium for the picture tests: a page rendered to a PNG screenshot, decoded into
//! pixels a test can look at.
//!
//! The browser is Debian's `chromium` (`apt-get install -y chromium`), or the program named by
//! `HALMA_CHROMIUM`. With `CI=true` a missing browser fails the test; elsewhere the test may
//! skip, and [`find`] prints why.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Longest a screenshot may take (a cold start of Chromium takes a few seconds).
const SCREENSHOT_TIMEOUT: Duration = Duration::from_secs(90);

/// The browser to render with: `HALMA_CHROMIUM`, else `chromium` on the `PATH`. `None` (after
/// printing why the test skips) when there is none outside CI.
///
/// # Panics
/// Under `CI=true` when no browser is found, so that CI never passes a picture test without
/// rendering the picture.
#[must_use]
pub fn find() -> Option<PathBuf> {
    let named = std::env::var_os("HALMA_CHROMIUM").map(PathBuf::from);
    let found = named.or_else(|| on_path("chromium"));
    if found.is_none() {
        let message = "chromium is not installed, and this test renders pictures with it: \
                       install it (`apt-get install -y chromium`) or name a Chromium binary in \
                       HALMA_CHROMIUM";
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("{message} (CI=true: the test may not skip)");
        }
        eprintln!("skipped: {message}");
    }
    found
}

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
    })
}

/// A screenshot's pixels, RGB, row by row.
#[derive(Clone, Debug)]
pub struct Screenshot {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    rgb: Vec<[u8; 3]>,
}

impl Screenshot {
    /// The pixel at (`x`, `y`); black outside the picture.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        if x >= self.width || y >= self.height {
            return [0, 0, 0];
        }
        self.rgb[(y * self.width + x) as usize]
    }

    /// How many pixels of the rectangle from (`x`, `y`), `w` by `h`, are within `tolerance`
    /// (per channel) of `colour`.
    #[must_use]
    pub fn count_near(
        &self,
        (x, y, w, h): (u32, u32, u32, u32),
        colour: [u8; 3],
        tolerance: u8,
    ) -> usize {
        let mut n = 0;
        for py in y..(y + h).min(self.height) {
            for px in x..(x + w).min(self.width) {
                let p = self.pixel(px, py);
                if p.iter()
                    .zip(colour)
                    .all(|(&a, b)| a.abs_diff(b) <= tolerance)
                {
                    n += 1;
                }
            }
        }
        n
    }

    /// How many different colours the rectangle holds.
    #[must_use]
    pub fn distinct_colours(&self, (x, y, w, h): (u32, u32, u32, u32)) -> usize {
        let mut seen = std::collections::HashSet::new();
        for py in y..(y + h).min(self.height) {
            for px in x..(x + w).min(self.width) {
                seen.insert(self.pixel(px, py));
            }
        }
        seen.len()
    }
}

/// `#RRGGBB` as RGB.
///
/// # Panics
/// When the text is not of that form.
#[must_use]
pub fn rgb(hex: &str) -> [u8; 3] {
    let digits = hex.trim_start_matches('#');
    let channel = |i: usize| {
        u8::from_str_radix(&digits[i..i + 2], 16).unwrap_or_else(|e| panic!("{hex}: {e}"))
    };
    assert_eq!(digits.len(), 6, "{hex} is not #RRGGBB");
    [channel(0), channel(2), channel(4)]
}

/// Renders `page` (an HTML document, with `files` beside it, such as the pictures it shows) in
/// a `width` by `height` window of headless `chromium` and returns the screenshot.
///
/// # Panics
/// When the files cannot be written, Chromium fails or takes longer than 90 seconds, or its
/// screenshot is not a PNG.
#[must_use]
pub fn screenshot(
    chromium: &Path,
    page: &str,
    files: &[(&str, &[u8])],
    width: u32,
    height: u32,
) -> Screenshot {
    static RUN: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "halma-chromium-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let html = dir.join("page.html");
    std::fs::write(&html, page).unwrap_or_else(|e| panic!("page.html: {e}"));
    let png = dir.join("screenshot.png");
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", chromium.display()));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > SCREENSHOT_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium took longer than {SCREENSHOT_TIMEOUT:?}");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("waiting for chromium: {e}"),
        }
    };
    assert!(status.success(), "chromium failed: {status}");
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    decode(&bytes)
}

/// Decodes a PNG into RGB pixels.
///
/// # Panics
/// When the bytes are not a PNG of 8-bit grey, RGB or RGBA pixels.
#[must_use]
pub fn decode(bytes: &[u8]) -> Screenshot {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder
        .read_info()
        .unwrap_or_else(|e| panic!("not a PNG: {e}"));
    let size = reader
        .output_buffer_size()
        .unwrap_or_else(|| panic!("PNG too large"));
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .unwrap_or_else(|e| panic!("PNG frame: {e}"));
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => panic!("indexed PNG left unexpanded"),
    };
    let rgb = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| match channels {
            1 | 2 => [p[0], p[0], p[0]],
            _ => [p[0], p[1], p[2]],
        })
        .collect();
    Screenshot {
        width: info.width,
        height: info.height,
        rgb,
    }
}
