//! Link flags for a Node addon (napi-build: `-undefined dynamic_lookup` on
//! macOS, nothing to do on Linux).

fn main() {
    napi_build::setup();
}
