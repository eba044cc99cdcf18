#!/usr/bin/env bash
# Installs the Debian LLVM tools the tests compare against, when any is missing:
#   LLVM 16 (opt, llvm-as, llvm-dis, FileCheck, not): the printer's oracle and the conformance runner;
#   LLVM 16 code generation (llc, lli, llvm-readobj) and lld 16 (ld.lld): PTX and AMDGPU code
#     objects, `syclkit llc`, the device math library run under lli;
#   LLVM 19 (opt, FileCheck): inputs only it parses;
#   LLVM 14 (opt, llvm-link): the typed-pointer mode's oracle;
#   LLVM 15 (llvm-as, llvm-dis), llvm-spirv-15 and spirv-tools (spirv-val): IR printed with llvmVersion 15
#   and SPIR-V images (Debian 12 ships the translator for LLVM 15 only), and the validator every SPIR-V
#   image of the tests passes;
#   GNU time: the benchmarks' peak-memory figures;
#   separate compilation and linking (@syclkit/objects, syclkit link): LLVM 16's llc and llvm-ar
#   (llvm-16), clang-offload-bundler-16 (clang-tools-16, interop tests), binutils (ar, readelf,
#   strip) and a C compiler (cc) for the host link.
# Tests that need a tool skip, naming it, when it is absent; CI installs everything.
set -euo pipefail

needed=(
  /usr/lib/llvm-16/bin/opt /usr/lib/llvm-16/bin/llvm-as /usr/lib/llvm-16/bin/llvm-dis
  /usr/lib/llvm-16/bin/FileCheck /usr/lib/llvm-16/bin/not
  /usr/lib/llvm-16/bin/lli /usr/lib/llvm-16/bin/llvm-readobj /usr/lib/llvm-16/bin/ld.lld
  /usr/lib/llvm-19/bin/opt /usr/lib/llvm-19/bin/FileCheck
  /usr/lib/llvm-14/bin/opt /usr/lib/llvm-14/bin/llvm-link
  /usr/lib/llvm-15/bin/llvm-as /usr/lib/llvm-15/bin/llvm-dis /usr/bin/llvm-spirv-15 /usr/bin/spirv-val
  /usr/bin/time
  /usr/lib/llvm-16/bin/llc /usr/lib/llvm-16/bin/llvm-ar /usr/bin/clang-offload-bundler-16
  /usr/bin/ar /usr/bin/readelf /usr/bin/strip /usr/bin/cc
)
missing=()
for tool in "${needed[@]}"; do
  [ -x "$tool" ] || missing+=("$tool")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup-llvm: all LLVM tools present"
  exit 0
fi
echo "setup-llvm: missing ${missing[*]}; installing llvm-16-tools llvm-16 lld-16 llvm-19 llvm-14 llvm-15 llvm-spirv-15 spirv-tools clang-tools-16 binutils gcc time"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-llvm: error: installing needs root (run: sudo bash scripts/setup-llvm.sh)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq llvm-16-tools llvm-16 lld-16 llvm-19 llvm-14 llvm-15 llvm-spirv-15 spirv-tools clang-tools-16 binutils gcc time >/dev/null
