// swift-tools-version:6.0
// The floor of issue 40's status bar (bench/floor.sh): not part of w8, built only by that script.
import PackageDescription

let package = Package(
    name: "floor",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "floor",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ], path: "Sources/floor")
    ])
