//! The step cache shared through the Remote Execution API (REAPI v2): the ActionCache holds
//! what a step made under its action key, the CAS holds the bytes (small blobs in batches,
//! big ones through ByteStream). The local store ([`super::Cache`]) stays in front: a remote
//! hit is copied into it, a local store is uploaded.
//!
//! A cache must never fail a build: the first error or timeout turns the remote off for the
//! rest of the process with one warning, and the build goes on with the local store.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub use bazel_remote_apis::build::bazel::remote::execution::v2 as re;
use bazel_remote_apis::google::bytestream as bs;
use prost::Message as _;
use re::action_cache_client::ActionCacheClient;
use re::content_addressable_storage_client::ContentAddressableStorageClient;
use tonic::transport::{Channel, Endpoint};

use super::key;

/// Blobs up to this size go in batches; bigger ones through ByteStream (servers take about
/// 4 MiB per message: BuildGrid says 4,193,280 bytes).
const BATCH_BYTES: usize = 2 << 20;
/// ByteStream chunk size.
const CHUNK: usize = 1 << 20;
/// The node property that marks an output stored with the object tree's path written `$O`.
const NORMALIZED: &str = "rkbuild.normalized";
/// The node property that carries an output's digest as keys count it.
const KEY_DIGEST: &str = "rkbuild.key_digest";

/// A REAPI endpoint: `grpc://host:port[/instance]` (`http://` is the same; no TLS yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    pub endpoint: String,
    pub instance: String,
}

impl Url {
    pub fn parse(text: &str) -> anyhow::Result<Url> {
        let rest = text
            .strip_prefix("grpc://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "remote cache `{text}`: expected grpc://HOST:PORT[/INSTANCE]\n  \
                     fix: e.g. --remote grpc://127.0.0.1:50051 (grpcs:// is not supported yet)"
                )
            })?;
        let (hostport, instance) = rest.split_once('/').unwrap_or((rest, ""));
        let port_ok = hostport
            .rsplit_once(':')
            .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok());
        if !port_ok {
            anyhow::bail!(
                "remote cache `{text}`: `{hostport}` is not HOST:PORT\n  \
                 fix: e.g. --remote grpc://127.0.0.1:50051"
            );
        }
        Ok(Url {
            endpoint: format!("http://{hostport}"),
            instance: instance.trim_end_matches('/').to_string(),
        })
    }
}

/// What this process did with the remote, for reports.
#[derive(Debug, Default)]
pub struct Counts {
    pub hits: AtomicU64,
    pub uploads: AtomicU64,
    pub bytes_down: AtomicU64,
    pub bytes_up: AtomicU64,
}

/// A REAPI cache client.
pub struct Remote {
    url: String,
    instance: String,
    rt: tokio::runtime::Runtime,
    channel: Channel,
    off: AtomicBool,
    entry_warned: AtomicBool,
    pub counts: Counts,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Remote({})", self.url)
    }
}

/// The REAPI digest of bytes.
pub fn digest_of(bytes: &[u8]) -> re::Digest {
    re::Digest {
        hash: key::digest(bytes),
        size_bytes: bytes.len() as i64,
    }
}

/// The REAPI action that stands for one of rkbuild's keys (`kind` says which level): a
/// command naming the key, so that any REAPI tool can look it up, with the key as salt.
pub fn action_for(kind: &str, key: &str) -> (re::Action, re::Command) {
    let command = re::Command {
        arguments: vec!["rkbuild".into(), kind.into(), key.into()],
        ..Default::default()
    };
    let action = re::Action {
        command_digest: Some(digest_of(&command.encode_to_vec())),
        input_root_digest: Some(digest_of(&re::Directory::default().encode_to_vec())),
        salt: key.as_bytes().to_vec(),
        ..Default::default()
    };
    (action, command)
}

/// The process-wide timeout of one remote call (`RKBUILD_REMOTE_TIMEOUT`, seconds).
fn timeout() -> Duration {
    let secs = std::env::var("RKBUILD_REMOTE_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(20.0);
    Duration::from_secs_f64(secs)
}

fn uuid() -> String {
    use std::sync::atomic::AtomicUsize;
    static N: AtomicUsize = AtomicUsize::new(0);
    let seed = format!(
        "{}-{:?}-{}",
        std::process::id(),
        std::time::SystemTime::now(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let h = key::digest(seed.as_bytes());
    // A version-4 shape: servers may check it.
    format!(
        "{}-{}-4{}-8{}-{}",
        &h[0..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    )
}

type R<T> = Result<T, tonic::Status>;

/// A blob the server lists but whose bytes do not match its digest (or cannot be read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// Whether an error is the connection's rather than the server's answer.
fn is_connection(code: tonic::Code) -> bool {
    use tonic::Code::*;
    matches!(code, Unavailable | DeadlineExceeded | Cancelled)
}

/// Whether an error says the server cannot be used at all (rather than one entry is bad).
fn turns_off(code: tonic::Code) -> bool {
    use tonic::Code::*;
    matches!(
        code,
        Unavailable
            | DeadlineExceeded
            | Unknown
            | Cancelled
            | Unauthenticated
            | PermissionDenied
            | Unimplemented
            | ResourceExhausted
    )
}

impl Remote {
    /// A client for `url`; nothing is sent until the first lookup.
    pub fn new(url: &str) -> anyhow::Result<Remote> {
        let u = Url::parse(url)?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let channel = {
            let _g = rt.enter();
            Endpoint::from_shared(u.endpoint.clone())?
                .connect_timeout(Duration::from_secs(3).min(timeout()))
                .timeout(timeout())
                .connect_lazy()
        };
        Ok(Remote {
            url: url.to_string(),
            instance: u.instance,
            rt,
            channel,
            off: AtomicBool::new(false),
            entry_warned: AtomicBool::new(false),
            counts: Counts::default(),
        })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether an error turned it off.
    pub fn is_off(&self) -> bool {
        self.off.load(Ordering::Relaxed)
    }

    /// Runs one remote operation; `None` on an error (see [`Remote::fail`]).
    fn run<T>(&self, what: &str, f: impl std::future::Future<Output = R<T>>) -> Option<T> {
        if self.is_off() {
            return None;
        }
        self.rt.block_on(f).map_err(|e| self.fail(what, &e)).ok()
    }

    /// An error of the connection (down, slow, refused) turns the remote off with one
    /// warning; an error about one entry (the server cannot read it) makes that entry a miss,
    /// with one warning for all of them.
    fn fail(&self, what: &str, e: &tonic::Status) {
        let msg = e.message();
        let why = if msg.is_empty() {
            format!("{:?}", e.code())
        } else {
            msg.lines().next().unwrap_or(msg).to_string()
        };
        if turns_off(e.code()) {
            if !self.off.swap(true, Ordering::Relaxed) {
                eprintln!(
                    "warning: remote cache {}: {what} failed ({why}); going on without it",
                    self.url
                );
            }
        } else if !self.entry_warned.swap(true, Ordering::Relaxed) {
            eprintln!(
                "warning: remote cache {}: {what} failed ({why}); taken as a miss",
                self.url
            );
        }
    }

    /// Reads a blob: `Err(Refused)` when the server lists it but cannot give its bytes (a short or
    /// unreadable file: refused as a corrupt blob is).
    fn fetch(
        &self,
        what: &str,
        f: impl std::future::Future<Output = R<Option<Vec<u8>>>>,
    ) -> Result<Option<Vec<u8>>, Refused> {
        if self.is_off() {
            return Ok(None);
        }
        match self.rt.block_on(f) {
            Ok(b) => Ok(b),
            Err(e) if is_connection(e.code()) => {
                self.fail(what, &e);
                Ok(None)
            }
            Err(_) => Err(Refused),
        }
    }

    fn ac(&self) -> ActionCacheClient<Channel> {
        ActionCacheClient::new(self.channel.clone())
    }

    fn cas(&self) -> ContentAddressableStorageClient<Channel> {
        ContentAddressableStorageClient::new(self.channel.clone())
            .max_decoding_message_size(64 << 20)
    }

    fn bytestream(&self) -> bs::byte_stream_client::ByteStreamClient<Channel> {
        bs::byte_stream_client::ByteStreamClient::new(self.channel.clone())
            .max_decoding_message_size(64 << 20)
    }

    /// The ActionResult stored for one of rkbuild's keys; `None` on a miss (or when off).
    pub fn get(&self, kind: &str, key: &str) -> Option<re::ActionResult> {
        let (action, _) = action_for(kind, key);
        let req = re::GetActionResultRequest {
            instance_name: self.instance.clone(),
            action_digest: Some(digest_of(&action.encode_to_vec())),
            inline_stdout: true,
            ..Default::default()
        };
        let mut ac = self.ac();
        self.run("GetActionResult", async move {
            match ac.get_action_result(req).await {
                Ok(r) => Ok(Some(r.into_inner())),
                Err(s) if s.code() == tonic::Code::NotFound => Ok(None),
                Err(s) => Err(s),
            }
        })
        .flatten()
    }

    /// Stores an ActionResult for one of rkbuild's keys, with the action and command that
    /// name it (so REAPI tools can read it). The outputs' blobs must be uploaded first.
    pub fn put(&self, kind: &str, key: &str, result: re::ActionResult) -> bool {
        let (action, command) = action_for(kind, key);
        let action_bytes = action.encode_to_vec();
        if !self.upload(vec![action_bytes.clone(), command.encode_to_vec()], &[]) {
            return false;
        }
        let req = re::UpdateActionResultRequest {
            instance_name: self.instance.clone(),
            action_digest: Some(digest_of(&action_bytes)),
            action_result: Some(result),
            ..Default::default()
        };
        let mut ac = self.ac();
        self.run("UpdateActionResult", async move {
            ac.update_action_result(req).await.map(|_| ())
        })
        .is_some()
    }

    /// The digests the server does not have (`None` when it cannot say).
    pub fn missing(&self, digests: &[re::Digest]) -> Option<Vec<re::Digest>> {
        let req = re::FindMissingBlobsRequest {
            instance_name: self.instance.clone(),
            blob_digests: digests.to_vec(),
            ..Default::default()
        };
        let mut cas = self.cas();
        self.run("FindMissingBlobs", async move {
            cas.find_missing_blobs(req)
                .await
                .map(|r| r.into_inner().missing_blob_digests)
        })
    }

    /// Uploads the blobs the server does not have, and those in `force` whatever it says
    /// (a blob found corrupt there). `true` when all are there now.
    pub fn upload(&self, blobs: Vec<Vec<u8>>, force: &[String]) -> bool {
        let digests: Vec<re::Digest> = blobs.iter().map(|b| digest_of(b)).collect();
        let Some(missing) = self.missing(&digests) else {
            return false;
        };
        self.send(
            digests
                .into_iter()
                .zip(blobs)
                .filter(|(d, _)| missing.contains(d) || force.contains(&d.hash))
                .map(|(d, b)| (d, Ok(b))),
        )
    }

    /// Uploads files whose digests are known, reading only those the server lacks.
    pub fn upload_files(&self, files: &[(std::path::PathBuf, re::Digest)]) -> bool {
        let digests: Vec<re::Digest> = files.iter().map(|(_, d)| d.clone()).collect();
        let Some(missing) = self.missing(&digests) else {
            return false;
        };
        let mut seen = std::collections::HashSet::new();
        self.send(
            files
                .iter()
                .filter(|(_, d)| missing.contains(d) && seen.insert(d.hash.clone()))
                .map(|(p, d)| (d.clone(), Self::read_file(p))),
        )
    }

    fn read_file(p: &std::path::Path) -> Result<Vec<u8>, String> {
        if p == std::path::Path::new("/dev/null") {
            return Ok(vec![]);
        }
        std::fs::read(p).map_err(|e| format!("cannot read `{}`: {e}", p.display()))
    }

    /// Sends blobs: small ones in batches, big ones through ByteStream.
    fn send(&self, blobs: impl Iterator<Item = (re::Digest, Result<Vec<u8>, String>)>) -> bool {
        let mut small = vec![];
        let mut small_size = 0;
        for (d, b) in blobs {
            let b = match b {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("warning: remote cache {}: {e}", self.url);
                    return false;
                }
            };
            self.counts
                .bytes_up
                .fetch_add(b.len() as u64, Ordering::Relaxed);
            if b.len() > BATCH_BYTES {
                if !self.write_stream(d, b) {
                    return false;
                }
                continue;
            }
            if small_size + b.len() > BATCH_BYTES {
                if !self.batch_update(std::mem::take(&mut small)) {
                    return false;
                }
                small_size = 0;
            }
            small_size += b.len();
            small.push(re::batch_update_blobs_request::Request {
                digest: Some(d),
                data: b,
                ..Default::default()
            });
        }
        small.is_empty() || self.batch_update(small)
    }

    /// Asks the server to run an uploaded action (REAPI Execution) and waits for its result as
    /// long as any remote call may take (`RKBUILD_REMOTE_TIMEOUT`). The error says why it did
    /// not run.
    pub fn execute(&self, action: re::Digest) -> Result<re::ActionResult, String> {
        let wait = timeout();
        use bazel_remote_apis::google::longrunning::operation;
        let req = re::ExecuteRequest {
            instance_name: self.instance.clone(),
            action_digest: Some(action),
            ..Default::default()
        };
        let mut client = re::execution_client::ExecutionClient::new(self.channel.clone());
        let run = async move {
            let mut stream = client.execute(req).await?.into_inner();
            while let Some(op) = stream.message().await? {
                if !op.done {
                    continue;
                }
                return match op.result {
                    Some(operation::Result::Response(any)) => {
                        let r = re::ExecuteResponse::decode(&any.value[..])
                            .map_err(|e| tonic::Status::internal(e.to_string()))?;
                        match r.status.filter(|s| s.code != 0) {
                            Some(s) => Err(tonic::Status::internal(s.message)),
                            None => r.result.ok_or_else(|| tonic::Status::internal("no result")),
                        }
                    }
                    Some(operation::Result::Error(s)) => Err(tonic::Status::internal(s.message)),
                    None => Err(tonic::Status::internal("done without a result")),
                };
            }
            Err(tonic::Status::internal("the operation stream ended early"))
        };
        self.rt
            .block_on(async { tokio::time::timeout(wait, run).await })
            .map_err(|_| {
                format!(
                    "no result within {:.0} s: the server queued the action, and no worker took it",
                    wait.as_secs_f64()
                )
            })?
            .map_err(|e| format!("{:?}: {}", e.code(), e.message()))
    }

    fn batch_update(&self, requests: Vec<re::batch_update_blobs_request::Request>) -> bool {
        if requests.is_empty() {
            return true;
        }
        let req = re::BatchUpdateBlobsRequest {
            instance_name: self.instance.clone(),
            requests,
            ..Default::default()
        };
        let mut cas = self.cas();
        self.run("BatchUpdateBlobs", async move {
            let r = cas.batch_update_blobs(req).await?.into_inner();
            match r
                .responses
                .iter()
                .find(|x| x.status.as_ref().is_some_and(|s| s.code != 0))
            {
                Some(bad) => Err(tonic::Status::internal(format!(
                    "blob {} refused: {}",
                    bad.digest.as_ref().map_or("?", |d| d.hash.as_str()),
                    bad.status.as_ref().map_or("", |s| s.message.as_str())
                ))),
                None => Ok(()),
            }
        })
        .is_some()
    }

    fn resource(&self, tail: String) -> String {
        if self.instance.is_empty() {
            tail
        } else {
            format!("{}/{tail}", self.instance)
        }
    }

    fn write_stream(&self, d: re::Digest, bytes: Vec<u8>) -> bool {
        let name = self.resource(format!(
            "uploads/{}/blobs/{}/{}",
            uuid(),
            d.hash,
            d.size_bytes
        ));
        let n = bytes.len();
        let mut reqs = vec![];
        let mut off = 0;
        while off < n || reqs.is_empty() {
            let end = (off + CHUNK).min(n);
            reqs.push(bs::WriteRequest {
                resource_name: if off == 0 {
                    name.clone()
                } else {
                    String::new()
                },
                write_offset: off as i64,
                finish_write: end == n,
                data: bytes[off..end].to_vec(),
            });
            off = end;
        }
        let mut client = self.bytestream();
        self.run("ByteStream.Write", async move {
            client
                .write(tokio_stream::iter(reqs))
                .await
                .map(|r| r.into_inner().committed_size)
        })
        .is_some_and(|c| c == n as i64)
    }

    /// The bytes of a blob, checked against its digest: `Err(Refused)` when the server's bytes do
    /// not match (refused), `Ok(None)` when missing or the remote is off.
    pub fn blob(&self, d: &re::Digest) -> Result<Option<Vec<u8>>, Refused> {
        let got = if d.size_bytes as usize > BATCH_BYTES {
            self.read_stream(d)?
        } else {
            self.batch_read(d)?
        };
        match got {
            Some(b) if key::digest(&b) == d.hash && b.len() as i64 == d.size_bytes => {
                self.counts
                    .bytes_down
                    .fetch_add(b.len() as u64, Ordering::Relaxed);
                Ok(Some(b))
            }
            Some(_) => Err(Refused),
            None => Ok(None),
        }
    }

    fn batch_read(&self, d: &re::Digest) -> Result<Option<Vec<u8>>, Refused> {
        let req = re::BatchReadBlobsRequest {
            instance_name: self.instance.clone(),
            digests: vec![d.clone()],
            ..Default::default()
        };
        let mut cas = self.cas();
        self.fetch("BatchReadBlobs", async move {
            let r = cas.batch_read_blobs(req).await?.into_inner();
            match r.responses.into_iter().next() {
                Some(x) => match x.status {
                    Some(s) if s.code == tonic::Code::NotFound as i32 => Ok(None),
                    Some(s) if s.code != 0 => Err(tonic::Status::data_loss(s.message)),
                    _ => Ok(Some(x.data.to_vec())),
                },
                None => Ok(None),
            }
        })
    }

    /// Several blobs at once (each checked as [`Remote::blob`] checks it).
    pub fn blobs(&self, ds: &[re::Digest]) -> Vec<Result<Option<Vec<u8>>, Refused>> {
        std::thread::scope(|s| {
            let hs: Vec<_> = ds.iter().map(|d| s.spawn(move || self.blob(d))).collect();
            hs.into_iter()
                .map(|h| h.join().unwrap_or(Ok(None)))
                .collect()
        })
    }

    fn read_stream(&self, d: &re::Digest) -> Result<Option<Vec<u8>>, Refused> {
        let req = bs::ReadRequest {
            resource_name: self.resource(format!("blobs/{}/{}", d.hash, d.size_bytes)),
            read_offset: 0,
            read_limit: 0,
        };
        let mut client = self.bytestream();
        let size = d.size_bytes.max(0) as usize;
        self.fetch("ByteStream.Read", async move {
            let mut stream = match client.read(req).await {
                Ok(s) => s.into_inner(),
                Err(s) if s.code() == tonic::Code::NotFound => return Ok(None),
                Err(s) => return Err(s),
            };
            let mut out = Vec::with_capacity(size);
            while let Some(m) = stream.message().await? {
                out.extend_from_slice(&m.data);
            }
            Ok(Some(out))
        })
    }
}

/// One file of an input root: its path in the root, its bytes' digest, executable or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootFile {
    pub path: String,
    pub digest: re::Digest,
    pub executable: bool,
}

/// The Merkle tree of an input root (REAPI's `Directory` messages, entries sorted by name):
/// the root's digest and every directory's bytes, the root's first.
pub fn input_root(files: &[RootFile]) -> (re::Digest, Vec<Vec<u8>>) {
    #[derive(Default)]
    struct Dir {
        files: std::collections::BTreeMap<String, (re::Digest, bool)>,
        dirs: std::collections::BTreeMap<String, Dir>,
    }
    fn encode(d: &Dir, out: &mut Vec<Vec<u8>>) -> re::Digest {
        let mut msg = re::Directory::default();
        for (name, sub) in &d.dirs {
            let digest = encode(sub, out);
            msg.directories.push(re::DirectoryNode {
                name: name.clone(),
                digest: Some(digest),
            });
        }
        for (name, (digest, executable)) in &d.files {
            msg.files.push(re::FileNode {
                name: name.clone(),
                digest: Some(digest.clone()),
                is_executable: *executable,
                ..Default::default()
            });
        }
        let bytes = msg.encode_to_vec();
        let digest = digest_of(&bytes);
        out.push(bytes);
        digest
    }
    let mut root = Dir::default();
    for f in files {
        let mut parts: Vec<&str> = f.path.split('/').filter(|p| !p.is_empty()).collect();
        let Some(name) = parts.pop() else { continue };
        let mut d = &mut root;
        for p in parts {
            d = d.dirs.entry(p.to_string()).or_default();
        }
        d.files
            .insert(name.to_string(), (f.digest.clone(), f.executable));
    }
    let mut out = vec![];
    let digest = encode(&root, &mut out);
    out.reverse();
    (digest, out)
}

/// An output as REAPI holds it; rkbuild's own facts about it are node properties.
pub fn output_file(
    path: &str,
    bytes_digest: re::Digest,
    normalized: bool,
    key_digest: Option<&str>,
) -> re::OutputFile {
    let mut properties = vec![];
    if normalized {
        properties.push(re::NodeProperty {
            name: NORMALIZED.into(),
            value: "true".into(),
        });
    }
    if let Some(k) = key_digest {
        properties.push(re::NodeProperty {
            name: KEY_DIGEST.into(),
            value: k.into(),
        });
    }
    re::OutputFile {
        path: path.to_string(),
        digest: Some(bytes_digest),
        node_properties: (!properties.is_empty()).then(|| re::NodeProperties {
            properties,
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The digest keys count an output by (see [`super::OutputFile::key_digest`]).
pub fn key_digest(f: &re::OutputFile) -> Option<String> {
    f.node_properties
        .as_ref()?
        .properties
        .iter()
        .find(|p| p.name == KEY_DIGEST)
        .map(|p| p.value.clone())
}

/// An ActionResult of outputs and what the tools printed.
pub fn re_result(files: Vec<re::OutputFile>, log: &[u8]) -> re::ActionResult {
    re::ActionResult {
        output_files: files,
        stdout_raw: log.to_vec(),
        ..Default::default()
    }
}

/// Whether an output was stored normalized (see [`output_file`]).
pub fn is_normalized(f: &re::OutputFile) -> bool {
    f.node_properties
        .as_ref()
        .is_some_and(|p| p.properties.iter().any(|x| x.name == NORMALIZED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let u = Url::parse("grpc://127.0.0.1:50051").unwrap();
        assert_eq!(u.endpoint, "http://127.0.0.1:50051");
        assert_eq!(u.instance, "");
        assert_eq!(
            Url::parse("grpc://cache.example:8980/main/")
                .unwrap()
                .instance,
            "main"
        );
        for bad in [
            "127.0.0.1:50051",
            "grpc://host",
            "grpc://:80",
            "grpcs://h:1",
        ] {
            let e = Url::parse(bad).unwrap_err().to_string();
            assert!(e.contains("fix:"), "{e}");
        }
    }

    #[test]
    fn an_action_stands_for_its_key_alone() {
        let d = |k: &str, key: &str| digest_of(&action_for(k, key).0.encode_to_vec());
        assert_eq!(d("action", "ab"), d("action", "ab"));
        assert_ne!(d("action", "ab"), d("action", "ac"));
        assert_ne!(d("action", "ab"), d("lists", "ab"));
    }

    #[test]
    fn an_input_root_is_a_merkle_tree_sorted_by_name() {
        let f = |path: &str, bytes: &[u8]| RootFile {
            path: path.into(),
            digest: digest_of(bytes),
            executable: false,
        };
        let files = [
            f("usr/bin/rustc", b"elf"),
            f("o/rust/target.json", b"{}"),
            f("o/rust/a.rs", b"fn a() {}"),
            f("dev/null", b""),
        ];
        let (root, blobs) = input_root(&files);
        assert_eq!(digest_of(&blobs[0]), root);
        // Three levels under the root: dev, o, o/rust, usr, usr/bin, and the root.
        assert_eq!(blobs.len(), 6);
        let top = re::Directory::decode(&blobs[0][..]).unwrap();
        let names: Vec<&str> = top.directories.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["dev", "o", "usr"]);
        let mut reversed = files.to_vec();
        reversed.reverse();
        assert_eq!(
            input_root(&reversed).0,
            root,
            "order of the list matters not"
        );
        let mut changed = files.to_vec();
        changed[2].digest = digest_of(b"fn a() { }");
        assert_ne!(
            input_root(&changed).0,
            root,
            "one byte of one input changes it"
        );
    }

    #[test]
    fn uuids_have_the_v4_shape() {
        let u = uuid();
        let parts: Vec<&str> = u.split('-').map(|p| p as &str).collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert_ne!(uuid(), u);
    }
}
