function __pushctl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __pushctl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __pushctl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __pushctl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __pushctl_parse_tokens -S
    set -l unparsed_tokens (__pushctl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'pushctl'
        __pushctl_parse_subcommand 0 'lang=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'send'
            __pushctl_parse_subcommand 0 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'cert=' 'cert-key=' 'cert-password-file=' 'jwt=' 'no-jwt-cache' 'topic=' 'device-token=+' 'tokens-file=' 'requests-file=' 'shard=' 'payload=' 'payload-json=' 'title=' 'subtitle=' 'body=' 'badge=' 'sound=' 'category=' 'thread-id=' 'content-available' 'mutable-content' 'interruption-level=' 'custom=+' 'live-activity=' 'timestamp=' 'content-state=' 'stale-date=' 'dismissal-date=' 'relevance-score=' 'attributes-type=' 'attributes=' 'input-push-token' 'input-push-channel=' 'no-lint' 'channel-id=+' 'request-id=' 'push-type=' 'priority=' 'collapse-id=' 'expiration=' 'apns-id=' 'sandbox' 'production' 'endpoint=' 'port=' 'cacert=' 'proxy=' 'proxy-user-file=' 'connect-to=+' 'concurrency=' 'connections=' 'retries=' 'timeout=' 'unregistered-out=' 'detect-environment' 'journal=' 'resume' 'skip-in-doubt' 'no-collapse-id' 'rate=' 'spread=' 'follow' 'metrics-file=' 'metrics-push=' 'simulator-file=' 'simulator=' 'app=' 'locale=' 'force' 'output=' 'dry-run' 'verbose' 'show-secrets' 'quiet' 'lang=' 'version' 'h/help'
        case 'report'
            __pushctl_parse_subcommand -r 1 'unregistered-out=' 'retry-out=' 'output=' 'quiet' 'lang=' 'version' 'h/help'
        case 'jwt'
            __pushctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'sign'
                __pushctl_parse_subcommand 0 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'issued-at=' 'explain' 'cached' 'output=' 'lang=' 'version' 'h/help'
            case 'decode'
                __pushctl_parse_subcommand 1 'lang=' 'version' 'h/help'
            case 'verify'
                __pushctl_parse_subcommand 1 'key-file=' 'key-id=' 'lang=' 'version' 'h/help'
            end
        case 'key'
            __pushctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'generate'
                __pushctl_parse_subcommand 0 'key-id=' 'out=' 'lang=' 'version' 'h/help'
            end
        case 'cert'
            __pushctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'inspect'
                __pushctl_parse_subcommand 1 'cert-password-file=' 'expires-within=' 'output=' 'lang=' 'version' 'h/help'
            case 'generate'
                __pushctl_parse_subcommand 0 'topic=+' 'environment=' 'days=' 'valid-from-days=' 'password-file=' 'out=' 'lang=' 'version' 'h/help'
            end
        case 'channel'
            __pushctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __pushctl_parse_subcommand 0 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'cert=' 'cert-key=' 'cert-password-file=' 'jwt=' 'no-jwt-cache' 'topic=' 'sandbox' 'production' 'endpoint=' 'cacert=' 'proxy=' 'request-id=' 'timeout=' 'retries=' 'output=' 'verbose' 'lang=' 'storage=' 'version' 'h/help'
            case 'list'
                __pushctl_parse_subcommand 0 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'cert=' 'cert-key=' 'cert-password-file=' 'jwt=' 'no-jwt-cache' 'topic=' 'sandbox' 'production' 'endpoint=' 'cacert=' 'proxy=' 'request-id=' 'timeout=' 'retries=' 'output=' 'verbose' 'lang=' 'version' 'h/help'
            case 'read'
                __pushctl_parse_subcommand 1 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'cert=' 'cert-key=' 'cert-password-file=' 'jwt=' 'no-jwt-cache' 'topic=' 'sandbox' 'production' 'endpoint=' 'cacert=' 'proxy=' 'request-id=' 'timeout=' 'retries=' 'output=' 'verbose' 'lang=' 'version' 'h/help'
            case 'delete'
                __pushctl_parse_subcommand 1 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'cert=' 'cert-key=' 'cert-password-file=' 'jwt=' 'no-jwt-cache' 'topic=' 'sandbox' 'production' 'endpoint=' 'cacert=' 'proxy=' 'request-id=' 'timeout=' 'retries=' 'output=' 'verbose' 'lang=' 'version' 'h/help'
            end
        case 'doctor'
            __pushctl_parse_subcommand 0 'key-file=' 'signer=' 'public-key=' 'key-id=' 'team-id=' 'cert=' 'cert-key=' 'cert-password-file=' 'endpoint=' 'cacert=' 'proxy=' 'proxy-user-file=' 'device-token=' 'topic=' 'timeout=' 'output=' 'lang=' 'version' 'h/help'
        case 'mock'
            __pushctl_parse_subcommand -r 1 'version' 'h/help'
        case 'demo'
            __pushctl_parse_subcommand -r 1 'version' 'h/help'
        case 'check'
            __pushctl_parse_subcommand -r 1 'version' 'h/help'
        case 'help'
            __pushctl_parse_subcommand -r 1 'version'
        end
    end
end

function __pushctl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __pushctl_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __pushctl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __pushctl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__pushctl_tokens -p)
    if test -z "$(__pushctl_tokens -t)"
        set -l index (count (__pushctl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'pushctl' -f
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'send' -d 'Send a push notification to one or more devices over HTTP/2.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'report' -d 'Add up the journals or JSON Lines results of N shards: one summary, one list of dead tokens, one to retry.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'jwt' -d 'Sign an APNs provider token (ES256 JWT) with a .p8 key, or decode and verify one.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'key' -d 'Make test keys.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'cert' -d 'Inspect APNs certificates (.p12, PEM, .cer), or make test ones.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'channel' -d 'Manage broadcast channels (iOS 18 broadcast push for Live Activities).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'doctor' -d 'Check this machine for sending: key, clock, DNS, TCP, TLS, HTTP/2, proxy.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'mock' -d 'Run a strict local APNs over TLS + HTTP/2 (runs pushctl-mock; `pushctl mock --help` for its options).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'demo' -d 'Walk through the whole flow offline: key, JWT, HTTP/2 request, APNs\' answers (runs pushctl-mock).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'check' -d 'Check a payload against the app it is for: what the phone will do with it; sends nothing (runs pushctl-app).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" cert' -l 'cert' -d 'Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).' -rfa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" cert-key' -l 'cert-key' -d 'The certificate\'s private key (PEM), when --cert holds only the certificate.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s (or the key\'s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" jwt' -l 'jwt' -d 'A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" no-jwt-cache' -l 'no-jwt-cache' -d 'Sign a new JWT instead of reusing the cached one (it is kept up to 50 minutes, env PUSHCTL_CACHE_DIR).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" topic' -l 'topic' -d 'Your app\'s bundle id; the push type\'s suffix is added (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send"' -l 'device-token' -d 'A device token in hex; repeat for several (Xcode\'s <ab cd …> form is fine).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" tokens-file' -l 'tokens-file' -d 'A file, pipe or FIFO of device tokens, one per line (# comments and blank lines skipped; a token given twice is sent once), or - for stdin.' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" requests-file' -l 'requests-file' -d 'A JSON Lines file, one notification per line: {"token":HEX,"payload":{…}} with optional push-type, priority, collapse-id, expiration, apns-id, topic (the header flags are defaults). Each payload is sent as its compact re-serialisation. - for stdin.' -rfa '(set -l exts \'jsonl\' \'json\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" shard' -l 'shard' -d 'Send only shard K of N (1 ≤ K ≤ N): the tokens (or requests-file lines) whose stable hash falls in it, so N machines given the same list send every token once between them. auto reads the job engine\'s index: GitLab\'s CI_NODE_INDEX/CI_NODE_TOTAL, AWS Batch\'s AWS_BATCH_JOB_ARRAY_INDEX/_SIZE, Kubernetes\' JOB_COMPLETION_INDEX (with auto/N: Kubernetes gives no count).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" payload' -l 'payload' -d 'The payload JSON file, sent byte for byte, or - for stdin.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" payload-json' -l 'payload-json' -d 'The payload as a JSON string.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" title' -l 'title' -d 'Build the payload: aps.alert.title.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" subtitle' -l 'subtitle' -d 'Build the payload: aps.alert.subtitle.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" body' -l 'body' -d 'Build the payload: aps.alert.body.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" badge' -l 'badge' -d 'Build the payload: aps.badge (0 clears it).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" sound' -l 'sound' -d 'Build the payload: aps.sound (e.g. default).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" category' -l 'category' -d 'Build the payload: aps.category.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" thread-id' -l 'thread-id' -d 'Build the payload: aps.thread-id.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" content-available' -l 'content-available' -d 'Build the payload: aps.content-available = 1 (alone, it makes a background push).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" mutable-content' -l 'mutable-content' -d 'Build the payload: aps.mutable-content = 1 (for a notification service extension).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" interruption-level' -l 'interruption-level' -d 'Build the payload: aps.interruption-level (passive, active, time-sensitive, critical).' -rfka 'passive active time-sensitive critical'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send"' -l 'custom' -d 'Build the payload: a custom key beside aps, KEY=JSON; repeatable.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" live-activity' -l 'live-activity' -d 'Build a Live Activity push: start, update or end (push type liveactivity, priority 10 unless --priority 5). --title/--body make its alert.' -rfka 'start update end'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" timestamp' -l 'timestamp' -d 'Live Activity: aps.timestamp, UNIX seconds (default: now).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" content-state' -l 'content-state' -d 'Live Activity: aps.content-state, as JSON or @FILE (what your ContentState decodes).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" stale-date' -l 'stale-date' -d 'Live Activity: aps.stale-date, UNIX seconds.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" dismissal-date' -l 'dismissal-date' -d 'Live Activity end: aps.dismissal-date, UNIX seconds (at most 4 hours ahead).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" relevance-score' -l 'relevance-score' -d 'Live Activity: aps.relevance-score, a number.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" attributes-type' -l 'attributes-type' -d 'Live Activity start: aps.attributes-type, your ActivityAttributes type\'s name.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" attributes' -l 'attributes' -d 'Live Activity start: aps.attributes, as JSON or @FILE.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" input-push-token' -l 'input-push-token' -d 'Live Activity start: aps.input-push-token = 1 (iOS 18: the started activity sends an update token).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" input-push-channel' -l 'input-push-channel' -d 'Live Activity start: aps.input-push-channel (iOS 18: subscribe the activity to this broadcast channel).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" no-lint' -l 'no-lint' -d 'Send Live Activity payloads the lint refuses (missing event, timestamp, content-state, …) anyway.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send"' -l 'channel-id' -d 'Broadcast to this channel (iOS 18; repeatable) instead of devices: POST /4/broadcasts/apps/<bundle> with the Live Activity payload.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" request-id' -l 'request-id' -d 'Broadcasts: apns-request-id, a UUID the server echoes.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" push-type' -l 'push-type' -d 'apns-push-type (default: background when aps holds only content-available, else alert).' -rfka 'alert background location voip complication fileprovider mdm liveactivity pushtotalk widgets controls'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" priority' -l 'priority' -d 'apns-priority: 10, 5 or 1 (default: 10; 5 for background).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" collapse-id' -l 'collapse-id' -d 'apns-collapse-id, at most 64 bytes.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" expiration' -l 'expiration' -d 'apns-expiration, UNIX seconds; 0 = deliver once or drop (default: APNs stores it up to 30 days).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" apns-id' -l 'apns-id' -d 'apns-id, a UUID (default: APNs makes one).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" sandbox' -l 'sandbox' -d 'Send to the sandbox (development) environment: api.sandbox.push.apple.com (default; env PUSHCTL_ENV).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" production' -l 'production' -d 'Send to production: api.push.apple.com.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" endpoint' -l 'endpoint' -d 'Send to this https URL instead (e.g. pushctl mock\'s) (env PUSHCTL_ENDPOINT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" port' -l 'port' -d 'Port on Apple\'s hosts: 443 (default) or 2197.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" cacert' -l 'cacert' -d 'Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" proxy' -l 'proxy' -d 'Send through this proxy: http://, https://, socks5:// or socks5h://HOST:PORT, user:password@ allowed (env PUSHCTL_PROXY; either wins over https_proxy/no_proxy, which libcurl follows otherwise).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" proxy-user-file' -l 'proxy-user-file' -d 'The proxy\'s user:password, read from this file (never on the command line).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send"' -l 'connect-to' -d 'As curl\'s --connect-to: connect to CONNECT-HOST:CONNECT-PORT for HOST:PORT, TLS still checking HOST (repeatable).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" concurrency' -l 'concurrency' -d 'Most notifications in flight at once (default: as many as the server\'s HTTP/2 SETTINGS allow; APNs starts at 1 and raises it to about 1,000 per connection).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" connections' -l 'connections' -d 'HTTP/2 connections to open; more help when one connection\'s streams are not enough (a server that allows few streams, or a long round trip).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" retries' -l 'retries' -d 'Retries on 429, 5xx and timeouts (a request lost with its connection gets 5 more), within (n + 1) × --timeout + 60 s per notification.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" timeout' -l 'timeout' -d 'Seconds to wait for each answer, connecting included.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" unregistered-out' -l 'unregistered-out' -d 'Write the tokens APNs called dead (410) to this file, one per line, to prune them.' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" detect-environment' -l 'detect-environment' -d 'Try a token answered BadDeviceToken (or every token, when the key is answered BadEnvironmentKeyIdInToken) once in the other environment; each result says which environment took it.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" journal' -l 'journal' -d 'Keep every final result in this JSON Lines file as it arrives (crash-safe); an existing journal needs --resume.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'jsonl\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" resume' -l 'resume' -d 'With --journal: carry on the run the journal holds — what APNs answered is not sent again; the rest is (a missing or empty journal starts the run).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" skip-in-doubt' -l 'skip-in-doubt' -d 'With --resume: leave out what was sent but not answered when the run stopped (in doubt) instead of sending it again.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" no-collapse-id' -l 'no-collapse-id' -d 'With --journal: add no apns-collapse-id. A journaled run gives each alert one derived from the run and the token (and every notification an apns-id), the same in every try and after --resume, so a copy sent twice replaces the first on the device; background and other undisplayed pushes get none; a --collapse-id or a line\'s collapse-id is never replaced.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" rate' -l 'rate' -d 'Start at most N notifications a second, across all connections (retries count too), so a big send does not reach every device in the same minute. With --shard the rate is per shard: N shards send up to N times it.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" spread' -l 'spread' -d 'Spread the notifications evenly over this long (90, 90s, 15m, 2h): the rate is their count over it. Not with --rate or --follow.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" follow' -l 'follow' -d 'With --tokens-file or --requests-file (- for standard input, a pipe, a FIFO): read the lines as they arrive and send each on arrival, results written in input order as they are final; a bad line is its own result (not sent) and the stream goes on; the end of the input ends the run. Not with --journal (a stream is not read twice: let the queue deliver again what has no result).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" metrics-file' -l 'metrics-file' -d 'Write the run\'s metrics to this file in Prometheus\' text format, replaced at once (for node_exporter\'s textfile collector: a .prom file in its folder).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'prom\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" metrics-push' -l 'metrics-push' -d 'Push the run\'s metrics to this Prometheus Pushgateway (http://host:9091) as job pushctl, the shard as a grouping label; a failed push is a warning (env PUSHCTL_METRICS_PUSH: keep a URL with a password there).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" simulator-file' -l 'simulator-file' -d 'Write the notification as an iOS Simulator .apns file (for `xcrun simctl push` or dragging onto a Simulator); sends nothing, needs no key or device token.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'apns\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" simulator' -l 'simulator' -d 'macOS: push the notification to this Simulator (a UDID, or booted) with `xcrun simctl push`; sends nothing to APNs.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" app' -l 'app' -d 'The app it is for (its project folder or a built .app): before sending, check the payload against its strings, Live Activity types and capabilities; refuse what will fail on the phone (env PUSHCTL_APP).' -rfa '(__pushctl_complete_directories)'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" locale' -l 'locale' -d 'The app\'s language the alert is read in (default: its development region).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" force' -l 'force' -d 'Send what --app says will fail on the phone anyway.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" output' -l 'output' -d 'text (one line per token, a summary on stderr), json (one document) or jsonl (one object per token, then a summary).' -rfka 'text json jsonl'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" dry-run' -l 'dry-run' -d 'Check and print the request and an equivalent curl command; send nothing.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" verbose' -l 'verbose' -d 'Show libcurl\'s trace on stderr (the JWT redacted).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" show-secrets' -l 'show-secrets' -d 'With --verbose or --dry-run, show the JWT instead of redacting it.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" quiet' -l 'quiet' -d 'Print nothing but errors; the exit status tells the outcome.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl send" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl report" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'jsonl\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" unregistered-out' -l 'unregistered-out' -d 'Write the tokens APNs called dead (410) to this tokens file, each with APNs\' time in a comment: delete a token only if it was registered before that time.' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" retry-out' -l 'retry-out' -d 'Write the tokens left to send again (temporary failures, APNs not reached, stopped runs) to this tokens file, for send --tokens-file later.' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" output' -l 'output' -d 'text (the summary and the lists, on stdout) or json (one document).' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" quiet' -l 'quiet' -d 'Print nothing but errors (and the json document); the exit status tells the outcome.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl report" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl jwt" -eq 1' -fa 'sign' -d 'Sign an APNs provider token (ES256 JWT) with a .p8 key (the default of `pushctl jwt`).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl jwt" -eq 1' -fa 'decode' -d 'Show a JWT\'s header and claims, its age and its signature\'s form. No key needed.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl jwt" -eq 1' -fa 'verify' -d 'Check a JWT\'s signature with a key, then APNs\' rules for provider tokens.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" issued-at' -l 'issued-at' -d 'The iat claim, UNIX seconds (default: now).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" explain' -l 'explain' -d 'Show every step of signing, one short sentence each (for class), on stderr; the token alone goes to stdout.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" cached' -l 'cached' -d 'The token send would use: from the JWT cache while it may be reused (up to 50 minutes), else signed now and cached.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" output' -l 'output' -d 'text (the token, one line) or json (header, claims and token).' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt sign" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt decode" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt decode" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt decode" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt verify" key-file' -l 'key-file' -d 'The .p8 private key, or a PEM public key (env PUSHCTL_KEY_FILE).' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt verify" key-id' -l 'key-id' -d 'The key\'s 10-character Key ID, to compare with the token\'s kid (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt verify" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt verify" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl jwt verify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl key" -eq 1' -fa 'generate' -d 'Write a test P-256 key in Apple\'s .p8 form (AuthKey_<ID>.p8, mode 0600). It is not an Apple key.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key generate" key-id' -l 'key-id' -d 'The 10-character key id to name it by (default: random).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key generate" out' -l 'out' -d 'A directory, or the file to write (default: the current directory).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key generate" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key generate" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl key generate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl cert" -eq 1' -fa 'inspect' -d 'Show what a push certificate covers: bundle id, topics, environments, validity.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl cert" -eq 1' -fa 'generate' -d 'Write a test CA and a client certificate shaped like Apple\'s push certificates. Not Apple\'s.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl cert inspect" -eq 1' -fa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert inspect" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert inspect" expires-within' -l 'expires-within' -d 'Exit 1 when the certificate expires within this many days (or has expired).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert inspect" output' -l 'output' -d 'text or json.' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert inspect" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert inspect" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert inspect" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate"' -l 'topic' -d 'A topic the certificate covers; the first is the bundle id. Repeatable (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" environment' -l 'environment' -d 'Which environments it serves: development (sandbox), production, or both (as Apple\'s current certificates).' -rfka 'development production both'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" days' -l 'days' -d 'Days it stays valid (Apple\'s: about 395).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" valid-from-days' -l 'valid-from-days' -d 'Days from now until it becomes valid; negative for a start in the past (with a short --days, an expired certificate for tests).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" password-file' -l 'password-file' -d 'A file holding the password for the .p12 (default: a random one, written to BUNDLE.password).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" out' -l 'out' -d 'The directory to write to (default: the current directory).' -rfa '(__pushctl_complete_directories)'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl cert generate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl channel" -eq 1' -fa 'create' -d 'Create a channel; prints its id.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl channel" -eq 1' -fa 'list' -d 'List the app\'s channel ids, one per line.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl channel" -eq 1' -fa 'read' -d 'Show a channel\'s storage policy and push type.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl channel" -eq 1' -fa 'delete' -d 'Delete a channel.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" cert' -l 'cert' -d 'Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).' -rfa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" cert-key' -l 'cert-key' -d 'The certificate\'s private key (PEM), when --cert holds only the certificate.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s (or the key\'s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" jwt' -l 'jwt' -d 'A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" no-jwt-cache' -l 'no-jwt-cache' -d 'Sign a new JWT instead of reusing the cached one.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" topic' -l 'topic' -d 'Your app\'s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" sandbox' -l 'sandbox' -d 'The sandbox\'s channel API: api-manage-broadcast.sandbox.push.apple.com:2195 (default; env PUSHCTL_ENV).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" production' -l 'production' -d 'Production\'s: api-manage-broadcast.push.apple.com:2196.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" endpoint' -l 'endpoint' -d 'This https URL instead (e.g. pushctl mock\'s) (env PUSHCTL_ENDPOINT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" cacert' -l 'cacert' -d 'Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" proxy' -l 'proxy' -d 'Through this proxy (env PUSHCTL_PROXY).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" request-id' -l 'request-id' -d 'apns-request-id, a UUID the server echoes.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" timeout' -l 'timeout' -d 'Seconds to wait for the answer.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" retries' -l 'retries' -d 'Retries on 429, 5xx and timeouts.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" output' -l 'output' -d 'text or json.' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" verbose' -l 'verbose' -d 'Show libcurl\'s trace on stderr (the JWT redacted).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" storage' -l 'storage' -d 'Message storage: none keeps nothing, latest the last message.' -rfka 'none latest'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" cert' -l 'cert' -d 'Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).' -rfa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" cert-key' -l 'cert-key' -d 'The certificate\'s private key (PEM), when --cert holds only the certificate.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s (or the key\'s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" jwt' -l 'jwt' -d 'A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" no-jwt-cache' -l 'no-jwt-cache' -d 'Sign a new JWT instead of reusing the cached one.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" topic' -l 'topic' -d 'Your app\'s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" sandbox' -l 'sandbox' -d 'The sandbox\'s channel API: api-manage-broadcast.sandbox.push.apple.com:2195 (default; env PUSHCTL_ENV).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" production' -l 'production' -d 'Production\'s: api-manage-broadcast.push.apple.com:2196.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" endpoint' -l 'endpoint' -d 'This https URL instead (e.g. pushctl mock\'s) (env PUSHCTL_ENDPOINT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" cacert' -l 'cacert' -d 'Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" proxy' -l 'proxy' -d 'Through this proxy (env PUSHCTL_PROXY).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" request-id' -l 'request-id' -d 'apns-request-id, a UUID the server echoes.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" timeout' -l 'timeout' -d 'Seconds to wait for the answer.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" retries' -l 'retries' -d 'Retries on 429, 5xx and timeouts.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" output' -l 'output' -d 'text or json.' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" verbose' -l 'verbose' -d 'Show libcurl\'s trace on stderr (the JWT redacted).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" cert' -l 'cert' -d 'Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).' -rfa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" cert-key' -l 'cert-key' -d 'The certificate\'s private key (PEM), when --cert holds only the certificate.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s (or the key\'s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" jwt' -l 'jwt' -d 'A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" no-jwt-cache' -l 'no-jwt-cache' -d 'Sign a new JWT instead of reusing the cached one.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" topic' -l 'topic' -d 'Your app\'s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" sandbox' -l 'sandbox' -d 'The sandbox\'s channel API: api-manage-broadcast.sandbox.push.apple.com:2195 (default; env PUSHCTL_ENV).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" production' -l 'production' -d 'Production\'s: api-manage-broadcast.push.apple.com:2196.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" endpoint' -l 'endpoint' -d 'This https URL instead (e.g. pushctl mock\'s) (env PUSHCTL_ENDPOINT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" cacert' -l 'cacert' -d 'Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" proxy' -l 'proxy' -d 'Through this proxy (env PUSHCTL_PROXY).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" request-id' -l 'request-id' -d 'apns-request-id, a UUID the server echoes.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" timeout' -l 'timeout' -d 'Seconds to wait for the answer.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" retries' -l 'retries' -d 'Retries on 429, 5xx and timeouts.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" output' -l 'output' -d 'text or json.' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" verbose' -l 'verbose' -d 'Show libcurl\'s trace on stderr (the JWT redacted).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel read" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" cert' -l 'cert' -d 'Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).' -rfa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" cert-key' -l 'cert-key' -d 'The certificate\'s private key (PEM), when --cert holds only the certificate.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s (or the key\'s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" jwt' -l 'jwt' -d 'A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" no-jwt-cache' -l 'no-jwt-cache' -d 'Sign a new JWT instead of reusing the cached one.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" topic' -l 'topic' -d 'Your app\'s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" sandbox' -l 'sandbox' -d 'The sandbox\'s channel API: api-manage-broadcast.sandbox.push.apple.com:2195 (default; env PUSHCTL_ENV).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" production' -l 'production' -d 'Production\'s: api-manage-broadcast.push.apple.com:2196.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" endpoint' -l 'endpoint' -d 'This https URL instead (e.g. pushctl mock\'s) (env PUSHCTL_ENDPOINT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" cacert' -l 'cacert' -d 'Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" proxy' -l 'proxy' -d 'Through this proxy (env PUSHCTL_PROXY).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" request-id' -l 'request-id' -d 'apns-request-id, a UUID the server echoes.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" timeout' -l 'timeout' -d 'Seconds to wait for the answer.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" retries' -l 'retries' -d 'Retries on 429, 5xx and timeouts.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" output' -l 'output' -d 'text or json.' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" verbose' -l 'verbose' -d 'Show libcurl\'s trace on stderr (the JWT redacted).'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl channel delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" key-file' -l 'key-file' -d 'The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11: URI, PIN from pin-source=file:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code: trusted ones only.' -rfa '(set -l exts \'p8\' \'pem\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" signer' -l 'signer' -d 'Sign with this command instead of a key (a KMS, Vault): it reads the JWT\'s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you: trusted configuration only.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" public-key' -l 'public-key' -d 'The signing key\'s public half (PEM key or certificate), to check each signature before use (default: <KEYID>.pem in this folder, if there).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" key-id' -l 'key-id' -d 'The 10-character Key ID (env PUSHCTL_KEY_ID; default: the <ID> in AuthKey_<ID>.p8).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" team-id' -l 'team-id' -d 'The 10-character Team ID (env PUSHCTL_TEAM_ID).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" cert' -l 'cert' -d 'Authenticate with a certificate instead of a key: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).' -rfa '(set -l exts \'p12\' \'pfx\' \'pem\' \'crt\' \'cer\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" cert-key' -l 'cert-key' -d 'The certificate\'s private key (PEM), when --cert holds only the certificate.' -rfa '(set -l exts \'pem\' \'key\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" cert-password-file' -l 'cert-password-file' -d 'A file holding the .p12\'s (or the key\'s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" endpoint' -l 'endpoint' -d 'Check only this https URL (e.g. pushctl mock\'s) (env PUSHCTL_ENDPOINT).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" cacert' -l 'cacert' -d 'Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).' -rfa '(set -l exts \'pem\' \'crt\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" proxy' -l 'proxy' -d 'Connect through this proxy, as send does (env PUSHCTL_PROXY; else https_proxy).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" proxy-user-file' -l 'proxy-user-file' -d 'The proxy\'s user:password, read from this file.' -rF
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" device-token' -l 'device-token' -d 'Send a real test notification (an alert) to this device.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" topic' -l 'topic' -d 'The bundle id for the test notification (env PUSHCTL_TOPIC).' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" timeout' -l 'timeout' -d 'Seconds each check may take.' -rfka ''
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" output' -l 'output' -d 'text (a line per check) or json (one document).' -rfka 'text json'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" lang' -l 'lang' -d 'Language of the messages: en or es (default: PUSHCTL_LANG, else the locale: LC_ALL, LC_MESSAGES, LANG).' -rfka 'en es'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl mock" -ge 1' -fka '(__pushctl_custom_completion ---completion mock -- positional@0 (count (__pushctl_tokens -pc)) (__pushctl_tokens -tC))'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl mock" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl mock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl demo" -ge 1' -fka '(__pushctl_custom_completion ---completion demo -- positional@0 (count (__pushctl_tokens -pc)) (__pushctl_tokens -tC))'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl demo" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_positional "pushctl check" -ge 1' -fka '(__pushctl_custom_completion ---completion check -- positional@0 (count (__pushctl_tokens -pc)) (__pushctl_tokens -tC))'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl check" version' -l 'version' -d 'Show the version.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'pushctl' -n '__pushctl_should_offer_completions_for_flags_or_options "pushctl help" version' -l 'version' -d 'Show the version.'
