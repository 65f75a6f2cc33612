//! Single flight: concurrent requests for the same cold thing wait for one
//! computation instead of each doing it.
//!
//! [`Flights`] hands out one [`Flight`] per key at a time. The pattern is
//! always the same: look in the cache; on a miss, [`Flights::enter`] the
//! key, look again (whoever held the flight before may have filled it), and
//! only then compute and keep. A computation that fails leaves the cache
//! empty, so the next one waiting tries again: an error never poisons.
//! Flights of different keys never wait for each other.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use tokio::sync::OwnedMutexGuard;

type Held<K> = Arc<Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>>;

/// The computations under way, by key; cheap to clone (one set shared).
#[derive(Debug)]
pub struct Flights<K> {
    held: Held<K>,
}

impl<K> Default for Flights<K> {
    fn default() -> Self {
        Flights {
            held: Arc::default(),
        }
    }
}

impl<K> Clone for Flights<K> {
    fn clone(&self) -> Self {
        Flights {
            held: Arc::clone(&self.held),
        }
    }
}

/// The right to compute the thing of one key, until dropped.
#[derive(Debug)]
pub struct Flight<K: Eq + Hash> {
    key: Option<K>,
    guard: Option<OwnedMutexGuard<()>>,
    held: Held<K>,
}

impl<K: Eq + Hash + Clone> Flights<K> {
    /// Waits until no one else computes the thing of `key`, then holds it.
    pub async fn enter(&self, key: K) -> Flight<K> {
        let lock = {
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(held.entry(key.clone()).or_default())
        };
        let guard = lock.lock_owned().await;
        Flight {
            key: Some(key),
            guard: Some(guard),
            held: Arc::clone(&self.held),
        }
    }

    /// How many keys have a flight under way or waiting.
    pub fn len(&self) -> usize {
        self.held.lock().map(|h| h.len()).unwrap_or_default()
    }

    /// Whether no flight is under way.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<K: Eq + Hash> Drop for Flight<K> {
    fn drop(&mut self) {
        let (Some(key), Some(guard)) = (self.key.take(), self.guard.take()) else {
            return;
        };
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        // The set's own handle and this guard's: no one else waits.
        if held.get(&key).is_some_and(|lock| {
            Arc::ptr_eq(lock, OwnedMutexGuard::mutex(&guard)) && Arc::strong_count(lock) == 2
        }) {
            held.remove(&key);
        }
        drop(guard);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// A cache filled the way the module docs say, counting computations.
    #[derive(Clone, Default)]
    struct Cached {
        flights: Flights<&'static str>,
        kept: Arc<Mutex<HashMap<&'static str, u32>>>,
        computed: Arc<AtomicUsize>,
    }

    impl Cached {
        fn look(&self, key: &str) -> Option<u32> {
            self.kept.lock().unwrap().get(key).copied()
        }

        async fn get(&self, key: &'static str, fail: bool) -> Result<u32, &'static str> {
            if let Some(hit) = self.look(key) {
                return Ok(hit);
            }
            let _flight = self.flights.enter(key).await;
            if let Some(hit) = self.look(key) {
                return Ok(hit);
            }
            self.computed.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(20)).await;
            if fail {
                return Err("failed");
            }
            self.kept.lock().unwrap().insert(key, 7);
            Ok(7)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sixteen_concurrent_cold_gets_compute_once() {
        let cached = Cached::default();
        let tasks: Vec<_> = (0..16)
            .map(|_| {
                let cached = cached.clone();
                tokio::spawn(async move { cached.get("board", false).await })
            })
            .collect();
        for task in tasks {
            assert_eq!(task.await.unwrap(), Ok(7));
        }
        assert_eq!(cached.computed.load(Ordering::SeqCst), 1);
        assert!(
            cached.flights.is_empty(),
            "a finished flight leaves no trace"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn different_keys_do_not_wait_for_each_other() {
        let flights = Flights::default();
        let _a = flights.enter("a").await;
        let b = tokio::time::timeout(Duration::from_secs(1), flights.enter("b")).await;
        assert!(b.is_ok(), "b waited for a");
        assert!(
            tokio::time::timeout(Duration::from_millis(50), flights.enter("a"))
                .await
                .is_err(),
            "a second flight of a key went ahead of the first"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_computation_does_not_poison_the_key() {
        let cached = Cached::default();
        assert_eq!(cached.get("board", true).await, Err("failed"));
        assert_eq!(cached.get("board", false).await, Ok(7));
        assert_eq!(cached.get("board", false).await, Ok(7));
        assert_eq!(cached.computed.load(Ordering::SeqCst), 2);
    }
}
