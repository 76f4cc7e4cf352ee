# Sourced by the other scripts: tools on PATH in the order trunk needs them.
# node_modules/.bin first, so trunk finds wasm-opt 132 from npm (Debian's binaryen 108
# produces a wasm that crashes in the browser); ~/.cargo/bin for trunk and wasm-bindgen.
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
