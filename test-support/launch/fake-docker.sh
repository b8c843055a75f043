#!/bin/sh
# A stand-in for the docker CLI, put first on PATH by the launch tests. Docker is not installed
# where the tests run: this tests helm-gate's side of it (spawning `docker run` with an argument
# array, asking `docker container inspect` / `docker image inspect`, parsing the answers), not
# docker itself.
#
#   docker run [--rm] [-d] [--name N] [-p P] [-e E] [--gpus G] IMAGE ARGS...
#       runs the fake OpenAI server with ARGS (in the foreground, as `docker run` without -d);
#       records the container N -> IMAGE in $HG_DOCKER_STATE
#   docker container inspect --format '{{.Image}}' N     -> the image id of N's image
#   docker image inspect --format '{{.Id}} {{json .RepoDigests}}' IMAGE|ID
#       -> the image id and ["<repository>@<digest>"]
#
# Ids and digests are derived from the image name (sha256 of "id:IMAGE", "digest:IMAGE"), so a test
# knows what to expect. Every invocation's arguments are appended, one per line, to
# $HG_DOCKER_STATE/calls.
set -eu
state=${HG_DOCKER_STATE:?HG_DOCKER_STATE must name a directory}
{ for arg in "$@"; do printf '%s\t' "$arg"; done; printf '\n'; } >>"$state/calls"
hash() { printf '%s' "$1" | sha256sum | cut -c1-64; }
case "${1:-}" in
  run)
    shift
    name=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --rm | -d | --detach) shift ;;
        --name) name=$2; shift 2 ;;
        -p | -e | --gpus | -v | --ipc) shift 2 ;;
        *) break ;;
      esac
    done
    image=$1
    shift
    [ -n "$name" ] && printf '%s\n' "$image" >"$state/container-$name"
    printf '%s\n' "$image" >"$state/image-sha256:$(hash "id:$image")"
    echo "fake docker: running $image"
    exec "$HG_NODE" "$HG_SERVER" --answer-key "$HG_ANSWER_KEY" --model gate-model "$@"
    ;;
  container)
    # container inspect --format {{.Image}} NAME
    eval "name=\${$#}"
    [ -f "$state/container-$name" ] || { echo "Error: No such container: $name" >&2; exit 1; }
    echo "sha256:$(hash "id:$(cat "$state/container-$name")")"
    ;;
  image)
    # image inspect --format '{{.Id}} {{json .RepoDigests}}' TARGET
    eval "target=\${$#}"
    if [ -f "$state/image-$target" ]; then image=$(cat "$state/image-$target"); else image=$target; fi
    repository=${image%:*}
    echo "sha256:$(hash "id:$image") [\"$repository@sha256:$(hash "digest:$image")\"]"
    ;;
  *)
    echo "fake docker: unsupported command: $*" >&2
    exit 1
    ;;
esac
