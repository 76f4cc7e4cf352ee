# Sourced by the other scripts: tools on PATH in the order trunk needs them.
# node_modules/.bin first, so trunk finds wasm-opt 132 from npm (Debian's binaryen 108
# produces a wasm that crashes in the browser); ~/.cargo/bin for trunk and wasm-bindgen.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# wasm-split (scripts/wasm-split.mjs) needs the relocations; only the wasm target gets the flag,
# so native builds keep their cache, and trunk's cargo build is the one the hook splits.
case " ${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} " in
  *" -Clink-args=--emit-relocs "*) ;;
  *) export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} -Clink-args=--emit-relocs" ;;
esac
