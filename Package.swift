// swift-tools-version: 6.0
import PackageDescription

// No package dependencies, by design: the library needs only Foundation,
// FoundationNetworking (on Linux) and Dispatch.
//
// Supported: Swift 6.0 and later (Xcode 16.0+), Linux, and the Apple versions below. They are
// the first where JSONEncoder and JSONDecoder are Sendable, which the package's Sendable types
// hold; Scripts/check-availability keeps the sources within them and the README in step.
let package = Package(
    name: "NetworkLayer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
        .library(name: "NetworkLayerCurl", targets: ["NetworkLayerCurl"]),
        .executable(name: "movie-db", targets: ["movie-db"]),
    ],
    targets: [
        .target(name: "Encoding", path: "Sources/Encoding"),
        .target(name: "NetworkLayer", dependencies: ["Encoding"], path: "Sources/NetworkLayer"),

        // libcurl, for the opt-in NetworkLayerCurl only: the NetworkLayer product and the example
        // build without its headers.
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "NetworkLayerCurl", dependencies: ["NetworkLayer", "CCurl"], path: "Sources/NetworkLayerCurl"),

        .target(name: "MovieDB", dependencies: ["NetworkLayer"], path: "Examples/MovieDB/Sources/MovieDB"),
        .executableTarget(name: "movie-db", dependencies: ["MovieDB"], path: "Examples/MovieDB/Sources/movie-db"),

        // Benchmarks/Peers is a package of its own (it depends on AsyncHTTPClient, which this
        // package must not): its sources are not this target's.
        .executableTarget(
            name: "Benchmarks", dependencies: ["NetworkLayer", "NetworkLayerCurl"], path: "Benchmarks", exclude: ["Peers"]),

        // Server URLs and helpers shared by the test targets; never part of a product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Runs a wire test over each transport (`@Test(arguments: TestTransport.all)`).
        .target(
            name: "TransportTestSupport", dependencies: ["NetworkLayer", "NetworkLayerCurl"],
            path: "Tests/TransportTestSupport"),
        .testTarget(name: "EncodingTests", dependencies: ["Encoding", "TestSupport"], path: "Tests/EncodingTests"),
        // The wire suites run over both transports, so this target needs libcurl's headers too.
        .testTarget(
            name: "NetworkLayerTests", dependencies: ["NetworkLayer", "TestSupport", "TransportTestSupport"],
            path: "Tests/NetworkLayerTests"),
        .testTarget(
            name: "NetworkLayerCurlTests",
            dependencies: ["NetworkLayerCurl", "NetworkLayer", "TestSupport", "TransportTestSupport"],
            path: "Tests/NetworkLayerCurlTests"),
        // The tutorial's app code as its readers wrote it: Swift 5 language mode, no change but
        // its base URL (ComingFromTheTutorial.md).
        .testTarget(
            name: "TutorialTests", dependencies: ["NetworkLayer", "TestSupport", "TransportTestSupport"],
            path: "Tests/TutorialTests", swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "MovieDBTests", dependencies: ["MovieDB", "TestSupport"], path: "Tests/MovieDBTests"),
    ],
    swiftLanguageModes: [.v6]
)
