// swift-tools-version: 6.0
// libFuzzer targets for the parsers that read what people type and the files they import. A package of its own,
// depending on the main one by path, so that `swift build`, `swift test` and `make release` never see it: these
// executables call libFuzzer's driver and link only with `-sanitize=fuzzer`. Build and run them with `make fuzz` or
// `make fuzz-smoke` (see the Makefile).
import PackageDescription

let targets = ["amounts", "dates", "csv", "config", "backup", "apple-health", "zip", "iphone-json", "vendor-json"]

let package = Package(
    name: "W8Fuzz",
    dependencies: [.package(name: "W8Trackr", path: "..")],
    targets: [
        // LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "CLibFuzzer"),
        // The driver's entry point, and the fixed moments, calendars and options shared by the targets.
        .target(
            name: "W8FuzzSupport",
            dependencies: [
                "CLibFuzzer", .product(name: "W8Core", package: "W8Trackr"),
                .product(name: "W8Formats", package: "W8Trackr"),
            ]),
    ]
        + targets.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: [
                    "W8FuzzSupport", .product(name: "W8Core", package: "W8Trackr"),
                    .product(name: "W8Formats", package: "W8Trackr"),
                ],
                // gold (the default linker here) fails with an internal error on the sanitized objects; lld ships
                // with the toolchain.
                linkerSettings: [.unsafeFlags(["-use-ld=lld"])])
        },
    swiftLanguageModes: [.v6]
)
