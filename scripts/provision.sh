#!/usr/bin/env bash
# Makes this machine able to run and test the system, installing only what is
# missing: npm dependencies, PostgreSQL with pgvector and unaccent, and NATS
# with JetStream. Safe to run again and again. Used by `npm start` and `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "[provision] $*"; }
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
wait_port() {
  for _ in $(seq 1 100); do port_open "$1" "$2" && return 0; sleep 0.2; done
  echo "[provision] nothing listens on $1:$2 after 20 s" >&2
  return 1
}

# 1. npm dependencies, when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm dependencies"
  # `npm install`, not `npm ci`: npm 11 leaves other platforms' optional packages
  # (turbo's) out of the lock file and `npm ci` then refuses it. The lock still pins versions.
  npm install --no-audit --no-fund
fi

# 2. PostgreSQL (Debian's), started when it is not running.
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  log "installing PostgreSQL"
  apt_install postgresql postgresql-contrib
fi
PG_VERSION="$(ls /etc/postgresql | sort -V | tail -n 1)"
if ! port_open 127.0.0.1 5432; then
  log "starting PostgreSQL $PG_VERSION"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" main start
  wait_port 127.0.0.1 5432
fi

# 3. pgvector: Debian's package where the release has one; otherwise built from
# Debian's own source package of the newer release, against this server.
PG_SHARE="$(/usr/lib/postgresql/"$PG_VERSION"/bin/pg_config --sharedir)"
if [ ! -f "$PG_SHARE/extension/vector.control" ]; then
  if apt-cache show "postgresql-$PG_VERSION-pgvector" >/dev/null 2>&1 && apt_install "postgresql-$PG_VERSION-pgvector"; then
    log "pgvector installed from Debian's package"
  else
    log "building pgvector from Debian's source package"
    apt_install dpkg-dev build-essential "postgresql-server-dev-$PG_VERSION"
    URI="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
    [ -n "$URI" ] || URI="$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list)"
    printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$URI" |
      $SUDO tee /etc/apt/sources.list.d/pgvector-src.sources >/dev/null
    $SUDO apt-get update -qq
    BUILD="$(mktemp -d)"
    (
      cd "$BUILD"
      apt-get source --download-only pgvector >/dev/null 2>&1
      tar xzf pgvector_*.orig.tar.gz
      cd pgvector-*/
      make -s PG_CONFIG="/usr/lib/postgresql/$PG_VERSION/bin/pg_config" OPTFLAGS="" >/dev/null
      $SUDO make -s install PG_CONFIG="/usr/lib/postgresql/$PG_VERSION/bin/pg_config" >/dev/null
    )
    rm -rf "$BUILD"
  fi
  [ -f "$PG_SHARE/extension/vector.control" ] || { echo "[provision] pgvector could not be installed" >&2; exit 1; }
fi

# 4. NATS with JetStream (Debian's nats-server), started when it is not running.
if ! command -v nats-server >/dev/null 2>&1 && [ ! -x /usr/sbin/nats-server ]; then
  log "installing nats-server"
  apt_install nats-server
fi
if ! port_open 127.0.0.1 4222; then
  log "starting nats-server with JetStream"
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_port 127.0.0.1 4222
fi
# 5. Local OCR: Tesseract with English data reads scans and images; poppler's pdftoppm and
# pdfinfo rasterise PDF pages for it; DejaVu is the font the test fixtures render scans with.
OCR_PKGS=()
command -v tesseract >/dev/null 2>&1 || OCR_PKGS+=(tesseract-ocr)
[ -f /usr/share/tesseract-ocr/5/tessdata/eng.traineddata ] || ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata >/dev/null 2>&1 || OCR_PKGS+=(tesseract-ocr-eng)
command -v pdftoppm >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1 || OCR_PKGS+=(poppler-utils)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || OCR_PKGS+=(fonts-dejavu-core)
if [ "${#OCR_PKGS[@]}" -gt 0 ]; then
  log "installing ${OCR_PKGS[*]}"
  apt_install "${OCR_PKGS[@]}"
fi
# 6. Redis server binary: the rate-limit tests start their own throwaway redis-server
# (a shared rate-limit store for several gateways, RATE_LIMIT_REDIS_URL). Nothing is
# started here: running the system does not need Redis.
if ! command -v redis-server >/dev/null 2>&1; then
  log "installing redis-server"
  apt_install redis-server
fi
# 7. A kustomize renderer for the deploy/k8s checks: kubectl's built-in kustomize, or
# the standalone binary. Debian's kubectl (kubernetes-client) only when neither exists.
if ! command -v kubectl >/dev/null 2>&1 && ! command -v kustomize >/dev/null 2>&1; then
  log "installing kubectl (kubernetes-client) for kustomize"
  apt_install kubernetes-client
fi
# 8. Chromium for the web app's browser tests (playwright-core drives Debian's build;
# nothing is downloaded by Playwright itself).
if [ ! -x /usr/bin/chromium ]; then
  log "installing chromium"
  apt_install chromium fonts-dejavu-core
fi
log "ready: PostgreSQL $PG_VERSION with pgvector, NATS with JetStream, Tesseract OCR, Chromium"
