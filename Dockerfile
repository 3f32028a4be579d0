# rtcswarm in a container: the Swift 6 toolchain plus the Debian libraries it links.
FROM swift:6.0-bookworm AS build
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        pkg-config libssl-dev libsrtp2-dev libopus-dev libvpx-dev libopenh264-dev libx265-dev libde265-dev libaom-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product rtcswarm

FROM swift:6.0-bookworm-slim
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        libssl3 libsrtp2-1 libopus0 libvpx7 libopenh264-7 libx265-199 libde265-0 libaom3 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /rtcswarm
COPY --from=build /src/.build/release/rtcswarm /usr/local/bin/rtcswarm
COPY deploy/merge-shards.sh /usr/local/bin/rtcswarm-merge-shards
COPY Scenarios ./Scenarios
ENTRYPOINT ["rtcswarm"]
