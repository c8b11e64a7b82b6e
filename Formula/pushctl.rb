# pushctl for Homebrew, built from this repository, which is its own tap (OWNER is where it lives):
#   brew tap OWNER/pushctl https://github.com/OWNER/pushctl
#   brew install --HEAD OWNER/pushctl/pushctl
# It builds and installs what Scripts/install.sh does: pushctl, pushctl-mock, pushctl-app, the man page and the
# bash, zsh and fish completions. Scripts/check-workflows.py checks this file in CI.
class Pushctl < Formula
  desc "Send Apple push notifications (APNs) from the command line"
  homepage "https://github.com/OWNER/pushctl"
  head "https://github.com/OWNER/pushctl.git", branch: "main"

  # Package.swift: swift-tools-version 6.2, which Xcode 26 brings, and macOS 15 or later.
  depends_on xcode: ["26.0", :build]
  depends_on "pkgconf" => :build # how SwiftPM finds libcurl and libcrypto (pkg-config's formula)
  depends_on macos: :sequoia
  # Homebrew's libcurl, not macOS's own: pushctl hands libcurl a client key from memory
  # (CURLOPT_SSLKEY_BLOB) and sets ALPN on libcurl's TLS context (CURLOPT_SSL_CTX_FUNCTION) with
  # OpenSSL 3's own calls. Both need a libcurl built on OpenSSL, the libcrypto pushctl signs with;
  # macOS's libcurl is built on LibreSSL and Secure Transport.
  depends_on "curl"
  depends_on "openssl@3"

  uses_from_macos "python" => :build # Scripts/manpage.py writes the man page

  def install
    # SwiftPM's own sandbox cannot run inside Homebrew's.
    system "swift", "build", "--disable-sandbox", "--configuration", "release"
    bin.install ".build/release/pushctl", ".build/release/pushctl-mock", ".build/release/pushctl-app"
    # The man page comes from the binaries' own argument definitions, as Scripts/install.sh makes it.
    (man1/"pushctl.1").write Utils.safe_popen_read("python3", "Scripts/manpage.py", bin/"pushctl", bin/"pushctl-mock", bin/"pushctl-app")
    generate_completions_from_executable(bin/"pushctl", "--generate-completion-script")
  end

  test do
    assert_match(/^\d+\.\d+\.\d+/, shell_output("#{bin}/pushctl --version"))
    # A test key (not an Apple one) and a dry run: the request is built, signed and checked, and
    # nothing is sent, so no network is needed.
    system bin/"pushctl", "key", "generate", "--key-id", "ABC123DEFG", "--out", testpath
    dry_run = shell_output("#{bin}/pushctl send --dry-run --no-jwt-cache " \
                           "--key-file #{testpath}/AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ " \
                           "--topic com.example.app --device-token #{"a" * 64} --title Hi")
    assert_match "apns-topic: com.example.app", dry_run
    assert_match "nothing was sent", dry_run
    # `pushctl mock` runs the pushctl-mock installed beside it.
    assert_match "strict local APNs", shell_output("#{bin}/pushctl mock --help")
  end
end
