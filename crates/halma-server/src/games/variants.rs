//! A small cache of validated variants, shared by the requests of all games with the same
//! setup (building a variant's tables costs more than reading a game).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use halma_rules::{GameSetup, SetupError, Variant};

/// Most setups kept; the cache is emptied when it is full (setups in use come back at once).
const CAPACITY: usize = 512;

/// Variants by setup.
#[derive(Debug, Default)]
pub struct VariantCache {
    map: Mutex<HashMap<String, Arc<Variant>>>,
}

impl VariantCache {
    /// The variant of `setup`, built once.
    ///
    /// # Errors
    /// [`SetupError`] when the setup cannot be played.
    pub fn get(&self, setup: &GameSetup) -> Result<Arc<Variant>, SetupError> {
        let key = format!(
            "{} {} {}",
            setup.board.name(),
            setup.players,
            setup.options.to_text()
        );
        if let Some(v) = self.lock().get(&key) {
            return Ok(Arc::clone(v));
        }
        let variant = Arc::new(Variant::new(setup)?);
        let mut map = self.lock();
        if map.len() >= CAPACITY {
            map.clear();
        }
        map.insert(key, Arc::clone(&variant));
        Ok(variant)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Variant>>> {
        // A panic while holding the lock cannot leave the map inconsistent (single inserts).
        self.map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
