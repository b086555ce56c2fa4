// swift-tools-version: 6.0
import PackageDescription

// No package dependencies, by design: the library needs only Foundation,
// FoundationNetworking (on Linux) and Dispatch.
let package = Package(
    name: "NetworkLayer",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
        .executable(name: "movie-db", targets: ["movie-db"]),
    ],
    targets: [
        .target(name: "Encoding", path: "Sources/Encoding"),
        .target(name: "NetworkLayer", dependencies: ["Encoding"], path: "Sources/NetworkLayer"),

        .target(name: "MovieDB", dependencies: ["NetworkLayer"], path: "Examples/MovieDB/Sources/MovieDB"),
        .executableTarget(name: "movie-db", dependencies: ["MovieDB"], path: "Examples/MovieDB/Sources/movie-db"),

        .executableTarget(name: "Benchmarks", dependencies: ["NetworkLayer"], path: "Benchmarks"),

        // Server URLs and helpers shared by the test targets; never part of a product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "EncodingTests", dependencies: ["Encoding", "TestSupport"], path: "Tests/EncodingTests"),
        .testTarget(name: "NetworkLayerTests", dependencies: ["NetworkLayer", "TestSupport"], path: "Tests/NetworkLayerTests"),
        .testTarget(name: "MovieDBTests", dependencies: ["MovieDB", "TestSupport"], path: "Tests/MovieDBTests"),
    ],
    swiftLanguageModes: [.v6]
)
