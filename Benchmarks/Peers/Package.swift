// swift-tools-version: 6.1
import PackageDescription

// NetworkLayer against its peers on the fixture server (Scripts/bench peers): raw URLSession,
// AsyncHTTPClient. A package of its own, beside the library, so that the library's Package.swift
// keeps no package dependency and `Scripts/test` never builds AsyncHTTPClient.
let package = Package(
    name: "Peers",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The library itself, by path: the router and both transports as this checkout has them.
        .package(name: "NetworkLayer", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // The TLS rows give AsyncHTTPClient the benchmark's throwaway CA (TLSConfiguration);
        // already in the graph through AsyncHTTPClient, named here because the code imports it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        // Counts malloc calls on every thread while LD_PRELOADed (`peers allocations`).
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "peers",
            dependencies: [
                .product(name: "NetworkLayer", package: "NetworkLayer"),
                .product(name: "NetworkLayerCurl", package: "NetworkLayer"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Sources/peers"
        )
    ],
    swiftLanguageModes: [.v6]
)
