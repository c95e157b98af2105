#!/usr/bin/env bash
# Installs the Debian 12 packages canopy needs, only when some are missing.
# Idempotent: on a ready machine it checks dpkg's database and returns in well under a second.
set -euo pipefail

packages=(
  cmake gcc make pkg-config
  libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  libglfw3-dev libcglm-dev libxml2-dev libpng-dev libstb-dev
  libjpeg-dev libgif-dev libwebp-dev zlib1g-dev
  libfontconfig-dev libfreetype-dev libharfbuzz-dev libfribidi-dev
  xvfb xauth clang libclang-rt-14-dev librsvg2-bin
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
