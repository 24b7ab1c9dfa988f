//! A real REAPI server for the tests: BuildGrid (installed by scripts/install-deps.sh), on
//! 127.0.0.1 with a free port and disk storage, stopped when dropped.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A BuildGrid server, stopped when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    /// Where its CAS keeps blobs (`…/cas/objects/ab/cdef…`).
    pub storage: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn start_buildgrid() -> Server {
    let bgd = super::tool_env("RKBUILD_TEST_BGD");
    let dir = tempfile::tempdir().unwrap();
    let storage = dir.path().join("storage");
    let port = free_port();
    let config = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/buildgrid.yml"),
    )
    .unwrap()
    .replace("@PORT@", &port.to_string())
    .replace("@STORAGE@", &storage.display().to_string());
    let cfg = dir.path().join("bgd.yml");
    std::fs::write(&cfg, config).unwrap();
    let log = std::fs::File::create(dir.path().join("bgd.log")).unwrap();
    let child = Command::new(&bgd)
        .args(["server", "start"])
        .arg(&cfg)
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start BuildGrid `{bgd}`: {e}"));
    let mut server = Server {
        child,
        port,
        storage,
        _dir: dir,
    };
    // Ready when its capabilities answer.
    let t = Instant::now();
    loop {
        let ok = Command::new(&bgd)
            .args(["capabilities", "--remote"])
            .arg(format!("http://127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return server;
        }
        if let Ok(Some(st)) = server.child.try_wait() {
            panic!(
                "BuildGrid exited ({st}):\n{}",
                std::fs::read_to_string(server._dir.path().join("bgd.log")).unwrap_or_default()
            );
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "BuildGrid did not answer on port {port} within 60 s"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

impl Server {
    pub fn url(&self) -> String {
        format!("grpc://127.0.0.1:{}", self.port)
    }
}
