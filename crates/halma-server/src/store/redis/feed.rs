//! The change feeds: what a Redis store hears of other instances' writes, announced to its
//! [`Changes`](super::super::Changes).

use std::sync::Arc;

use ::redis::cluster::ClusterClient;
use ::redis::cluster_async::ClusterConnection;
use ::redis::{Client, PushKind, RedisError, Value};
use futures_util::StreamExt as _;

use super::super::changes::WeakChanges;
use super::super::Version;
use super::{OPERATION_TIMEOUT, SUBSCRIBE_CHECK, SUBSCRIBE_MAX_DELAY, SUBSCRIBE_MIN_DELAY};

/// Follows the change channel for as long as the store's changes live: subscribes on a
/// connection of its own, announces every `VERSION ID` message, and after any break
/// reconnects with backoff and wakes every watcher (what was published meanwhile is lost).
pub(super) async fn follow_changes(client: Client, channel: Arc<str>, changes: WeakChanges) {
    let mut delay = SUBSCRIBE_MIN_DELAY;
    while changes.upgrade().is_some() {
        let subscribed = tokio::time::timeout(OPERATION_TIMEOUT, async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&*channel).await?;
            Ok::<_, RedisError>(pubsub.into_on_message())
        })
        .await;
        match subscribed {
            Ok(Ok(mut messages)) => {
                delay = SUBSCRIBE_MIN_DELAY;
                match changes.upgrade() {
                    Some(live) => live.wake_all(),
                    None => return,
                }
                loop {
                    let next = tokio::time::timeout(SUBSCRIBE_CHECK, messages.next()).await;
                    let Some(live) = changes.upgrade() else {
                        return;
                    };
                    match next {
                        Err(_idle) => continue,
                        Ok(None) => break,
                        Ok(Some(message)) => match parse_change(message.get_payload_bytes()) {
                            Some((version, id)) => live.publish(id, version),
                            None => tracing::warn!(
                                channel = %channel,
                                "ignoring a message on the change channel that is not VERSION ID"
                            ),
                        },
                    }
                }
                tracing::warn!(channel = %channel, "the change subscription was closed; reconnecting");
            }
            Ok(Err(err)) => {
                tracing::warn!(channel = %channel, error = %err, "cannot subscribe to game changes; retrying");
            }
            Err(_elapsed) => {
                tracing::warn!(channel = %channel, "subscribing to game changes timed out; retrying");
            }
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(SUBSCRIBE_MAX_DELAY);
    }
}

/// Reads a change message, `VERSION ID`.
pub(super) fn parse_change(payload: &[u8]) -> Option<(Version, &str)> {
    let text = std::str::from_utf8(payload).ok()?;
    let (version, id) = text.split_once(' ')?;
    let version = version.parse::<Version>().ok().filter(|v| *v > 0)?;
    (!id.is_empty()).then_some((version, id))
}

/// The sharded channel of game `id`'s changes on a cluster, in the game's slot.
pub(super) fn shard_channel(key_prefix: &str, id: &str) -> String {
    format!("{key_prefix}changes:{{{id}}}")
}

/// Follows the changes of the games watched on this instance, on a cluster: subscribes to a
/// game's sharded channel when it gets its first watcher and unsubscribes when it has none
/// (the client subscribes again by itself after it reconnects to a node), announces every
/// `VERSION ID` message, and wakes the game's watchers once a subscription is in place (a
/// write before it was not heard) and every watcher after a connection was lost. Ends soon
/// after the store's changes are dropped.
pub(super) async fn follow_shard_changes(
    client: ClusterClient,
    key_prefix: Arc<str>,
    changes: WeakChanges,
    mut interest: tokio::sync::mpsc::UnboundedReceiver<super::super::changes::Interest>,
    mut pushes: tokio::sync::mpsc::UnboundedReceiver<::redis::PushInfo>,
) {
    use super::super::changes::Interest;
    let mut delay = SUBSCRIBE_MIN_DELAY;
    // Games whose subscription is not in place (not yet, or it failed).
    let mut pending: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut connection: Option<ClusterConnection> = None;
    loop {
        let Some(live) = changes.upgrade() else {
            return;
        };
        if connection.is_none() {
            match tokio::time::timeout(OPERATION_TIMEOUT, client.get_async_connection()).await {
                Ok(Ok(connected)) => {
                    connection = Some(connected);
                    delay = SUBSCRIBE_MIN_DELAY;
                    pending.extend(live.watched());
                }
                Ok(Err(err)) => {
                    tracing::warn!(error = %err, "cannot connect to the cluster for game changes; retrying");
                }
                Err(_elapsed) => {
                    tracing::warn!(
                        "connecting to the cluster for game changes timed out; retrying"
                    );
                }
            }
        }
        if let Some(connected) = connection.as_mut() {
            let ids: Vec<String> = pending.iter().cloned().collect();
            for id in ids {
                let channel = shard_channel(&key_prefix, &id);
                let wanted = live.is_watched(&id);
                let done = if wanted {
                    connected.ssubscribe(&channel).await
                } else {
                    connected.sunsubscribe(&channel).await
                };
                match done {
                    Ok(()) => {
                        pending.remove(&id);
                        if wanted {
                            live.wake(&id);
                        }
                    }
                    Err(err) => {
                        tracing::warn!(channel = %channel, error = %err, "cannot change a subscription to game changes; retrying");
                        break;
                    }
                }
            }
        }
        drop(live);
        let wait = if pending.is_empty() && connection.is_some() {
            SUBSCRIBE_CHECK
        } else {
            delay
        };
        tokio::select! {
            news = interest.recv() => match news {
                Some(Interest::Watched(id) | Interest::Unwatched(id)) => {
                    pending.insert(id);
                    // Take every change of interest that is queued before subscribing.
                    while let Ok(Interest::Watched(id) | Interest::Unwatched(id)) = interest.try_recv() {
                        pending.insert(id);
                    }
                }
                None => return,
            },
            push = pushes.recv() => match push {
                Some(push) => {
                    let Some(live) = changes.upgrade() else {
                        return;
                    };
                    match push.kind {
                        PushKind::SMessage => match push.data.get(1).and_then(push_bytes).and_then(parse_change) {
                            Some((version, id)) => live.publish(id, version),
                            None => tracing::warn!("ignoring a message on a change channel that is not VERSION ID"),
                        },
                        PushKind::Disconnection => live.wake_all(),
                        _ => {}
                    }
                }
                None => return,
            },
            () = tokio::time::sleep(wait) => {
                if !pending.is_empty() {
                    delay = (delay * 2).min(SUBSCRIBE_MAX_DELAY);
                }
            }
        }
    }
}

/// The bytes of a pushed message's payload.
fn push_bytes(value: &Value) -> Option<&[u8]> {
    match value {
        Value::BulkString(bytes) => Some(bytes),
        Value::SimpleString(text) => Some(text.as_bytes()),
        _ => None,
    }
}
