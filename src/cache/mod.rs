//! A content-addressed store of build steps, shared by every object tree on the machine: what
//! a step made (its outputs and what its tools printed) under its action key ([`key`]), the
//! outputs' bytes by digest, and per command key the input lists past runs read. Entries are
//! written atomically (a reader never sees half an entry), a blob whose bytes do not match its
//! digest is refused, and the store is kept under a size limit by dropping the blobs used
//! least recently.
//!
//! Layout under the cache folder: `cas/ab/<digest>` (bytes), `ac/ab/<action key>.json` (an
//! [`ActionResult`]), `lists/ab/<command key>.json` (input lists, newest first).
//!
//! With a remote ([`remote`], REAPI), a local miss asks the remote: a hit is copied into the
//! local store, every blob checked against its digest; what is stored locally is uploaded.

pub mod key;
pub mod remote;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// How many input lists are kept per command key (a crate whose includes changed over time).
const LISTS_KEPT: usize = 8;

/// The default size limit.
pub const DEFAULT_LIMIT: u64 = 5 << 30;

/// What a step made.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ActionResult {
    /// Each output: its path as the step names it (normalized, see [`key::normalize`]), the
    /// digest of its bytes, and whether those bytes are text in which the object tree's path
    /// was normalized (a depfile).
    pub outputs: Vec<OutputFile>,
    /// What the step's tools printed (warnings are shown again on a hit).
    pub log: String,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OutputFile {
    pub path: String,
    pub digest: String,
    #[serde(default)]
    pub normalized: bool,
    /// For an output that names its object tree (a crate's metadata, a proc macro): its
    /// digest with that path written `$O`, which is how the keys of the steps using it count
    /// it (its bytes cannot be rewritten: the path's length is part of the format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_digest: Option<String>,
}

/// The store.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    limit: u64,
    remote: Option<std::sync::Arc<remote::Remote>>,
    /// Blobs the remote served with bytes that do not match their digest: uploaded again
    /// whatever it says it has.
    refused: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// Blobs this process wrote after checking their bytes (a remote hit): read back without
    /// hashing them again.
    verified: std::sync::Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
}

fn shard(root: &Path, kind: &str, name: &str, ext: &str) -> PathBuf {
    root.join(kind)
        .join(&name[..2.min(name.len())])
        .join(format!("{name}{ext}"))
}

impl Cache {
    /// The store in `dir` (made when missing), kept under `limit` bytes.
    pub fn open(dir: &Path, limit: u64) -> anyhow::Result<Cache> {
        std::fs::create_dir_all(dir).with_context(|| {
            format!(
                "cannot create the cache folder `{}`\n  fix: pass a writable folder as --cache-dir",
                dir.display()
            )
        })?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            limit,
            remote: None,
            refused: Default::default(),
            verified: Default::default(),
        })
    }

    /// The same store in front of a REAPI cache (`grpc://host:port[/instance]`), if one is
    /// named.
    pub fn with_remote(mut self, url: Option<&str>) -> anyhow::Result<Cache> {
        if let Some(url) = url {
            self.remote = Some(std::sync::Arc::new(remote::Remote::new(url)?));
        }
        Ok(self)
    }

    pub fn remote(&self) -> Option<&remote::Remote> {
        self.remote.as_deref()
    }

    /// The user's cache folder for rkbuild: `$XDG_CACHE_HOME/rkbuild`, else `~/.cache/rkbuild`.
    pub fn default_dir() -> PathBuf {
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        match (env("XDG_CACHE_HOME"), env("HOME")) {
            (Some(x), _) => PathBuf::from(x).join("rkbuild"),
            (None, Some(h)) => PathBuf::from(h).join(".cache/rkbuild"),
            (None, None) => std::env::temp_dir().join("rkbuild-cache"),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        crate::fsutil::write_if_changed(path, bytes)?;
        Ok(())
    }

    /// Stores bytes; returns their digest.
    pub fn put_blob(&self, bytes: &[u8]) -> anyhow::Result<String> {
        let d = key::digest(bytes);
        let p = shard(&self.dir, "cas", &d, "");
        if !p.is_file() {
            Self::write(&p, bytes)?;
        }
        Ok(d)
    }

    /// The bytes of a digest; `None` when missing or corrupt (then the entry is dropped, so a
    /// rebuild stores good bytes again). Marks the blob used, for eviction.
    pub fn blob(&self, digest: &str) -> Option<Vec<u8>> {
        let p = shard(&self.dir, "cas", digest, "");
        let bytes = std::fs::read(&p).ok()?;
        let known = self.verified.lock().is_ok_and(|v| v.contains(digest));
        if !known && key::digest(&bytes) != digest {
            let _ = std::fs::remove_file(&p);
            return None;
        }
        if let Ok(f) = std::fs::File::options().append(true).open(&p) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
        Some(bytes)
    }

    pub fn action(&self, key: &str) -> Option<ActionResult> {
        let local = std::fs::read(shard(&self.dir, "ac", key, ".json"))
            .ok()
            .and_then(|text| serde_json::from_slice(&text).ok());
        local.or_else(|| self.remote_action(key))
    }

    /// A remote hit, copied into the local store with all its blobs; `None` when a blob is
    /// missing or its bytes do not match its digest (refused: the step is built again).
    fn remote_action(&self, key: &str) -> Option<ActionResult> {
        let rem = self.remote.as_ref()?;
        let r = rem.get("action", key)?;
        // The blobs not here yet, fetched at once; each checked against its digest.
        let mut missing = vec![];
        for f in &r.output_files {
            let d = f.digest.as_ref()?;
            if !shard(&self.dir, "cas", &d.hash, "").is_file() && !missing.contains(d) {
                missing.push(d.clone());
            }
        }
        for (d, got) in missing.iter().zip(rem.blobs(&missing)) {
            let bytes = self.checked(rem, d, got)?;
            Self::write(&shard(&self.dir, "cas", &d.hash, ""), &bytes).ok()?;
            self.verified.lock().ok()?.insert(d.hash.clone());
        }
        let mut outputs = vec![];
        for f in &r.output_files {
            let d = f.digest.as_ref()?;
            outputs.push(OutputFile {
                path: f.path.clone(),
                digest: d.hash.clone(),
                normalized: remote::is_normalized(f),
                key_digest: remote::key_digest(f),
            });
        }
        let got = ActionResult {
            outputs,
            log: String::from_utf8_lossy(&r.stdout_raw).into_owned(),
        };
        rem.counts
            .hits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let _ = self.put_local_action(key, &got);
        Some(got)
    }

    /// A blob from the remote, checked: bytes that do not match their digest are refused
    /// (and uploaded again when this process has them).
    fn remote_blob(&self, rem: &remote::Remote, d: &remote::re::Digest) -> Option<Vec<u8>> {
        self.checked(rem, d, rem.blob(d))
    }

    /// A fetched blob, or `None` with a warning when it was refused (and it is remembered,
    /// to be uploaded again).
    fn checked(
        &self,
        rem: &remote::Remote,
        d: &remote::re::Digest,
        got: Result<Option<Vec<u8>>, remote::Refused>,
    ) -> Option<Vec<u8>> {
        match got {
            Ok(b) => b,
            Err(remote::Refused) => {
                eprintln!(
                    "warning: remote cache {}: blob {} does not match its digest; refused",
                    rem.url(),
                    d.hash
                );
                self.refused.lock().ok()?.push(d.hash.clone());
                None
            }
        }
    }

    fn refused(&self) -> Vec<String> {
        self.refused.lock().map(|v| v.clone()).unwrap_or_default()
    }

    fn put_local_action(&self, key: &str, r: &ActionResult) -> anyhow::Result<()> {
        Self::write(
            &shard(&self.dir, "ac", key, ".json"),
            &serde_json::to_vec(r)?,
        )
    }

    /// Stores an action (its blobs already stored), locally and on the remote.
    pub fn put_action(&self, key: &str, r: &ActionResult) -> anyhow::Result<()> {
        self.put_local_action(key, r)?;
        if let Some(rem) = &self.remote {
            let mut blobs = vec![];
            let mut files = vec![];
            for f in &r.outputs {
                let bytes = self
                    .blob(&f.digest)
                    .with_context(|| format!("blob {} of `{}` is gone", f.digest, f.path))?;
                files.push(remote::output_file(
                    &f.path,
                    remote::digest_of(&bytes),
                    f.normalized,
                    f.key_digest.as_deref(),
                ));
                blobs.push(bytes);
            }
            if rem.upload(blobs, &self.refused()) {
                let result = remote::re_result(files, r.log.as_bytes());
                if rem.put("action", key, result) {
                    rem.counts
                        .uploads
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }
        Ok(())
    }

    fn local_lists(&self, command_key: &str) -> Vec<Vec<String>> {
        std::fs::read(shard(&self.dir, "lists", command_key, ".json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// The lists the remote holds for a command key: an action of their own whose one output
    /// is the lists as JSON.
    fn remote_lists(&self, command_key: &str) -> Vec<Vec<String>> {
        let Some(rem) = &self.remote else {
            return vec![];
        };
        let Some(r) = rem.get("lists", command_key) else {
            return vec![];
        };
        r.output_files
            .first()
            .and_then(|f| f.digest.as_ref())
            .and_then(|d| self.remote_blob(rem, d))
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// The input lists stored for a command key, newest first: the local ones, then any other
    /// the remote has, asked for only when the local ones are used up (a local hit costs no
    /// round trip).
    pub fn lists<'a>(&'a self, command_key: &'a str) -> impl Iterator<Item = Vec<String>> + 'a {
        let local = self.local_lists(command_key);
        let seen = local.clone();
        local
            .into_iter()
            .chain(std::iter::once(()).flat_map(move |()| {
                let seen = seen.clone();
                self.remote_lists(command_key)
                    .into_iter()
                    .filter(move |l| !seen.contains(l))
            }))
    }

    pub fn add_list(&self, command_key: &str, list: Vec<String>) -> anyhow::Result<()> {
        let add = |mut lists: Vec<Vec<String>>| {
            lists.retain(|l| *l != list);
            lists.insert(0, list.clone());
            lists.truncate(LISTS_KEPT);
            lists
        };
        let lists = add(self.local_lists(command_key));
        Self::write(
            &shard(&self.dir, "lists", command_key, ".json"),
            &serde_json::to_vec(&lists)?,
        )?;
        if let Some(rem) = &self.remote {
            let remote = self.remote_lists(command_key);
            if remote.first() != Some(&list) {
                let json = serde_json::to_vec(&add(remote))?;
                let file = remote::output_file("lists.json", remote::digest_of(&json), false, None);
                if rem.upload(vec![json], &self.refused()) {
                    rem.put("lists", command_key, remote::re_result(vec![file], b""));
                }
            }
        }
        Ok(())
    }

    /// Drops the blobs used least recently until the store is under its limit; returns the
    /// bytes dropped. Actions whose blobs are gone are misses, and are stored again.
    pub fn evict(&self) -> anyhow::Result<u64> {
        let mut blobs = vec![];
        let mut total = 0u64;
        let cas = self.dir.join("cas");
        for shard in std::fs::read_dir(&cas).into_iter().flatten().flatten() {
            for e in std::fs::read_dir(shard.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let Ok(m) = e.metadata() else { continue };
                total += m.len();
                let t = m.modified().unwrap_or(std::time::UNIX_EPOCH);
                blobs.push((t, m.len(), e.path()));
            }
        }
        if total <= self.limit {
            return Ok(0);
        }
        blobs.sort();
        let mut dropped = 0;
        for (_, len, path) in blobs {
            if total - dropped <= self.limit {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                dropped += len;
            }
        }
        Ok(dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_actions_and_lists_round_trip() {
        let d = tempfile::tempdir().unwrap();
        let c = Cache::open(d.path(), DEFAULT_LIMIT).unwrap();
        let dg = c.put_blob(b"object bytes").unwrap();
        assert_eq!(c.blob(&dg).unwrap(), b"object bytes");
        let r = ActionResult {
            outputs: vec![OutputFile {
                path: "rust/core.o".into(),
                digest: dg.clone(),
                normalized: false,
                key_digest: None,
            }],
            log: "warning: x\n".into(),
        };
        c.put_action("abcd", &r).unwrap();
        assert_eq!(c.action("abcd"), Some(r));
        assert_eq!(c.action("abce"), None);
        c.add_list("k", vec!["a".into()]).unwrap();
        c.add_list("k", vec!["b".into()]).unwrap();
        c.add_list("k", vec!["a".into()]).unwrap();
        assert_eq!(
            c.lists("k").collect::<Vec<_>>(),
            [vec!["a".to_string()], vec!["b".to_string()]]
        );
    }

    #[test]
    fn a_corrupt_blob_is_refused_and_dropped() {
        let d = tempfile::tempdir().unwrap();
        let c = Cache::open(d.path(), DEFAULT_LIMIT).unwrap();
        let dg = c.put_blob(b"good").unwrap();
        let p = shard(d.path(), "cas", &dg, "");
        std::fs::write(&p, b"evil").unwrap();
        assert_eq!(c.blob(&dg), None);
        assert!(!p.exists());
    }

    #[test]
    fn eviction_drops_the_least_recently_used_first() {
        let d = tempfile::tempdir().unwrap();
        let c = Cache::open(d.path(), 10).unwrap();
        let old = c.put_blob(b"0123456789").unwrap();
        let p = shard(d.path(), "cas", &old, "");
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options()
            .append(true)
            .open(&p)
            .unwrap()
            .set_modified(past)
            .unwrap();
        let new = c.put_blob(b"abcdefghij").unwrap();
        assert_eq!(c.evict().unwrap(), 10);
        assert!(c.blob(&old).is_none());
        assert!(c.blob(&new).is_some());
    }
}
