#compdef pushctl

__pushctl_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__pushctl_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __pushctl_complete "${completions[@]:0:-1}"
    fi
}

__pushctl_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_pushctl() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'send:Send a push notification to one or more devices over HTTP/2.'
            'report:Add up the journals or JSON Lines results of N shards: one summary, one list of dead tokens, one to retry.'
            'jwt:Sign an APNs provider token (ES256 JWT) with a .p8 key, or decode and verify one.'
            'key:Make test keys.'
            'cert:Inspect APNs certificates (.p12, PEM, .cer), or make test ones.'
            'channel:Manage broadcast channels (iOS 18 broadcast push for Live Activities).'
            'doctor:Check this machine for sending: key, clock, DNS, TCP, TLS, HTTP/2, proxy.'
            'mock:Run a strict local APNs over TLS + HTTP/2 (runs pushctl-mock; `pushctl mock --help` for its options).'
            'demo:Walk through the whole flow offline: key, JWT, HTTP/2 request, APNs'\'' answers (runs pushctl-mock).'
            'check:Check a payload against the app it is for: what the phone will do with it; sends nothing (runs pushctl-app).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        send|report|jwt|key|cert|channel|doctor|mock|demo|check|help)
            "_pushctl_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_pushctl_send() {
    local -i ret=1
    local -ar ___interruption_level=('passive' 'active' 'time-sensitive' 'critical')
    local -ar ___live_activity=('start' 'update' 'end')
    local -ar ___push_type=('alert' 'background' 'location' 'voip' 'complication' 'fileprovider' 'mdm' 'liveactivity' 'pushtotalk' 'widgets' 'controls')
    local -ar ___output=('text' 'json' 'jsonl')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--cert[Authenticate with a certificate instead of a key\: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).]:path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-key[The certificate'\''s private key (PEM), when --cert holds only the certificate.]:path:_files -g '\''*.pem *.key'\'''
        '--cert-password-file[A file holding the .p12'\''s (or the key'\''s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--jwt[A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).]:token:'
        '--no-jwt-cache[Sign a new JWT instead of reusing the cached one (it is kept up to 50 minutes, env PUSHCTL_CACHE_DIR).]'
        '--topic[Your app'\''s bundle id; the push type'\''s suffix is added (env PUSHCTL_TOPIC).]:bundle-id:'
        '*--device-token[A device token in hex; repeat for several (Xcode'\''s <ab cd …> form is fine).]:hex:'
        '--tokens-file[A file, pipe or FIFO of device tokens, one per line (# comments and blank lines skipped; a token given twice is sent once), or - for stdin.]:path:_files'
        '--requests-file[A JSON Lines file, one notification per line\: {"token"\:HEX,"payload"\:{…}} with optional push-type, priority, collapse-id, expiration, apns-id, topic (the header flags are defaults). Each payload is sent as its compact re-serialisation. - for stdin.]:path:_files -g '\''*.jsonl *.json'\'''
        '--shard[Send only shard K of N (1 ≤ K ≤ N)\: the tokens (or requests-file lines) whose stable hash falls in it, so N machines given the same list send every token once between them. auto reads the job engine'\''s index\: GitLab'\''s CI_NODE_INDEX/CI_NODE_TOTAL, AWS Batch'\''s AWS_BATCH_JOB_ARRAY_INDEX/_SIZE, Kubernetes'\'' JOB_COMPLETION_INDEX (with auto/N\: Kubernetes gives no count).]:k/n|auto|auto/n:'
        '--payload[The payload JSON file, sent byte for byte, or - for stdin.]:path:_files -g '\''*.json'\'''
        '--payload-json[The payload as a JSON string.]:json:'
        '--title[Build the payload\: aps.alert.title.]:title:'
        '--subtitle[Build the payload\: aps.alert.subtitle.]:subtitle:'
        '--body[Build the payload\: aps.alert.body.]:body:'
        '--badge[Build the payload\: aps.badge (0 clears it).]:badge:'
        '--sound[Build the payload\: aps.sound (e.g. default).]:sound:'
        '--category[Build the payload\: aps.category.]:category:'
        '--thread-id[Build the payload\: aps.thread-id.]:thread-id:'
        '--content-available[Build the payload\: aps.content-available = 1 (alone, it makes a background push).]'
        '--mutable-content[Build the payload\: aps.mutable-content = 1 (for a notification service extension).]'
        '--interruption-level[Build the payload\: aps.interruption-level (passive, active, time-sensitive, critical).]:level:{__pushctl_complete "${___interruption_level[@]}"}'
        '*--custom[Build the payload\: a custom key beside aps, KEY=JSON; repeatable.]:key=json:'
        '--live-activity[Build a Live Activity push\: start, update or end (push type liveactivity, priority 10 unless --priority 5). --title/--body make its alert.]:event:{__pushctl_complete "${___live_activity[@]}"}'
        '--timestamp[Live Activity\: aps.timestamp, UNIX seconds (default\: now).]:unix:'
        '--content-state[Live Activity\: aps.content-state, as JSON or @FILE (what your ContentState decodes).]:json|@file:'
        '--stale-date[Live Activity\: aps.stale-date, UNIX seconds.]:unix:'
        '--dismissal-date[Live Activity end\: aps.dismissal-date, UNIX seconds (at most 4 hours ahead).]:unix:'
        '--relevance-score[Live Activity\: aps.relevance-score, a number.]:n:'
        '--attributes-type[Live Activity start\: aps.attributes-type, your ActivityAttributes type'\''s name.]:name:'
        '--attributes[Live Activity start\: aps.attributes, as JSON or @FILE.]:json|@file:'
        '--input-push-token[Live Activity start\: aps.input-push-token = 1 (iOS 18\: the started activity sends an update token).]'
        '--input-push-channel[Live Activity start\: aps.input-push-channel (iOS 18\: subscribe the activity to this broadcast channel).]:id:'
        '--no-lint[Send Live Activity payloads the lint refuses (missing event, timestamp, content-state, …) anyway.]'
        '*--channel-id[Broadcast to this channel (iOS 18; repeatable) instead of devices\: POST /4/broadcasts/apps/<bundle> with the Live Activity payload.]:id:'
        '--request-id[Broadcasts\: apns-request-id, a UUID the server echoes.]:uuid:'
        '--push-type[apns-push-type (default\: background when aps holds only content-available, else alert).]:type:{__pushctl_complete "${___push_type[@]}"}'
        '--priority[apns-priority\: 10, 5 or 1 (default\: 10; 5 for background).]:n:'
        '--collapse-id[apns-collapse-id, at most 64 bytes.]:id:'
        '--expiration[apns-expiration, UNIX seconds; 0 = deliver once or drop (default\: APNs stores it up to 30 days).]:unix:'
        '--apns-id[apns-id, a UUID (default\: APNs makes one).]:uuid:'
        '--sandbox[Send to the sandbox (development) environment\: api.sandbox.push.apple.com (default; env PUSHCTL_ENV).]'
        '--production[Send to production\: api.push.apple.com.]'
        '--endpoint[Send to this https URL instead (e.g. pushctl mock'\''s) (env PUSHCTL_ENDPOINT).]:url:'
        '--port[Port on Apple'\''s hosts\: 443 (default) or 2197.]:port:'
        '--cacert[Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).]:path:_files -g '\''*.pem *.crt'\'''
        '--proxy[Send through this proxy\: http\://, https\://, socks5\:// or socks5h\://HOST\:PORT, user\:password@ allowed (env PUSHCTL_PROXY; either wins over https_proxy/no_proxy, which libcurl follows otherwise).]:url:'
        '--proxy-user-file[The proxy'\''s user\:password, read from this file (never on the command line).]:path:_files'
        '*--connect-to[As curl'\''s --connect-to\: connect to CONNECT-HOST\:CONNECT-PORT for HOST\:PORT, TLS still checking HOST (repeatable).]:host\:port\:connect-host\:connect-port:'
        '--concurrency[Most notifications in flight at once (default\: as many as the server'\''s HTTP/2 SETTINGS allow; APNs starts at 1 and raises it to about 1,000 per connection).]:n:'
        '--connections[HTTP/2 connections to open; more help when one connection'\''s streams are not enough (a server that allows few streams, or a long round trip).]:n:'
        '--retries[Retries on 429, 5xx and timeouts (a request lost with its connection gets 5 more), within (n + 1) × --timeout + 60 s per notification.]:n:'
        '--timeout[Seconds to wait for each answer, connecting included.]:seconds:'
        '--unregistered-out[Write the tokens APNs called dead (410) to this file, one per line, to prune them.]:path:_files'
        '--detect-environment[Try a token answered BadDeviceToken (or every token, when the key is answered BadEnvironmentKeyIdInToken) once in the other environment; each result says which environment took it.]'
        '--journal[Keep every final result in this JSON Lines file as it arrives (crash-safe); an existing journal needs --resume.]:path:_files -g '\''*.jsonl'\'''
        '--resume[With --journal\: carry on the run the journal holds — what APNs answered is not sent again; the rest is (a missing or empty journal starts the run).]'
        '--skip-in-doubt[With --resume\: leave out what was sent but not answered when the run stopped (in doubt) instead of sending it again.]'
        '--no-collapse-id[With --journal\: add no apns-collapse-id. A journaled run gives each alert one derived from the run and the token (and every notification an apns-id), the same in every try and after --resume, so a copy sent twice replaces the first on the device; background and other undisplayed pushes get none; a --collapse-id or a line'\''s collapse-id is never replaced.]'
        '--rate[Start at most N notifications a second, across all connections (retries count too), so a big send does not reach every device in the same minute. With --shard the rate is per shard\: N shards send up to N times it.]:n:'
        '--spread[Spread the notifications evenly over this long (90, 90s, 15m, 2h)\: the rate is their count over it. Not with --rate or --follow.]:duration:'
        '--follow[With --tokens-file or --requests-file (- for standard input, a pipe, a FIFO)\: read the lines as they arrive and send each on arrival, results written in input order as they are final; a bad line is its own result (not sent) and the stream goes on; the end of the input ends the run. Not with --journal (a stream is not read twice\: let the queue deliver again what has no result).]'
        '--metrics-file[Write the run'\''s metrics to this file in Prometheus'\'' text format, replaced at once (for node_exporter'\''s textfile collector\: a .prom file in its folder).]:path:_files -g '\''*.prom'\'''
        '--metrics-push[Push the run'\''s metrics to this Prometheus Pushgateway (http\://host\:9091) as job pushctl, the shard as a grouping label; a failed push is a warning (env PUSHCTL_METRICS_PUSH\: keep a URL with a password there).]:url:'
        '--simulator-file[Write the notification as an iOS Simulator .apns file (for `xcrun simctl push` or dragging onto a Simulator); sends nothing, needs no key or device token.]:path:_files -g '\''*.apns'\'''
        '--simulator[macOS\: push the notification to this Simulator (a UDID, or booted) with `xcrun simctl push`; sends nothing to APNs.]:udid|booted:'
        '--app[The app it is for (its project folder or a built .app)\: before sending, check the payload against its strings, Live Activity types and capabilities; refuse what will fail on the phone (env PUSHCTL_APP).]:path:_files -/'
        '--locale[The app'\''s language the alert is read in (default\: its development region).]:locale:'
        '--force[Send what --app says will fail on the phone anyway.]'
        '--output[text (one line per token, a summary on stderr), json (one document) or jsonl (one object per token, then a summary).]:output:{__pushctl_complete "${___output[@]}"}'
        '--dry-run[Check and print the request and an equivalent curl command; send nothing.]'
        '--verbose[Show libcurl'\''s trace on stderr (the JWT redacted).]'
        '--show-secrets[With --verbose or --dry-run, show the JWT instead of redacting it.]'
        '--quiet[Print nothing but errors; the exit status tells the outcome.]'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_report() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '*:file:_files -g '\''*.jsonl'\'''
        '--unregistered-out[Write the tokens APNs called dead (410) to this tokens file, each with APNs'\'' time in a comment\: delete a token only if it was registered before that time.]:path:_files'
        '--retry-out[Write the tokens left to send again (temporary failures, APNs not reached, stopped runs) to this tokens file, for send --tokens-file later.]:path:_files'
        '--output[text (the summary and the lists, on stdout) or json (one document).]:output:{__pushctl_complete "${___output[@]}"}'
        '--quiet[Print nothing but errors (and the json document); the exit status tells the outcome.]'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_jwt() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'sign:Sign an APNs provider token (ES256 JWT) with a .p8 key (the default of `pushctl jwt`).'
            'decode:Show a JWT'\''s header and claims, its age and its signature'\''s form. No key needed.'
            'verify:Check a JWT'\''s signature with a key, then APNs'\'' rules for provider tokens.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        sign|decode|verify)
            "_pushctl_jwt_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_pushctl_jwt_sign() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--issued-at[The iat claim, UNIX seconds (default\: now).]:unix:'
        '--explain[Show every step of signing, one short sentence each (for class), on stderr; the token alone goes to stdout.]'
        '--cached[The token send would use\: from the JWT cache while it may be reused (up to 50 minutes), else signed now and cached.]'
        '--output[text (the token, one line) or json (header, claims and token).]:output:{__pushctl_complete "${___output[@]}"}'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_jwt_decode() {
    local -i ret=1
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        ':token:'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_jwt_verify() {
    local -i ret=1
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        ':token:'
        '--key-file[The .p8 private key, or a PEM public key (env PUSHCTL_KEY_FILE).]:path:_files -g '\''*.p8 *.pem'\'''
        '--key-id[The key'\''s 10-character Key ID, to compare with the token'\''s kid (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_key() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'generate:Write a test P-256 key in Apple'\''s .p8 form (AuthKey_<ID>.p8, mode 0600). It is not an Apple key.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        generate)
            "_pushctl_key_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_pushctl_key_generate() {
    local -i ret=1
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '--key-id[The 10-character key id to name it by (default\: random).]:id:'
        '--out[A directory, or the file to write (default\: the current directory).]:path:_files'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_cert() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'inspect:Show what a push certificate covers: bundle id, topics, environments, validity.'
            'generate:Write a test CA and a client certificate shaped like Apple'\''s push certificates. Not Apple'\''s.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        inspect|generate)
            "_pushctl_cert_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_pushctl_cert_inspect() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        ':path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-password-file[A file holding the .p12'\''s password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--expires-within[Exit 1 when the certificate expires within this many days (or has expired).]:days:'
        '--output[text or json.]:output:{__pushctl_complete "${___output[@]}"}'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_cert_generate() {
    local -i ret=1
    local -ar ___environment=('development' 'production' 'both')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '*--topic[A topic the certificate covers; the first is the bundle id. Repeatable (env PUSHCTL_TOPIC).]:topic:'
        '--environment[Which environments it serves\: development (sandbox), production, or both (as Apple'\''s current certificates).]:environment:{__pushctl_complete "${___environment[@]}"}'
        '--days[Days it stays valid (Apple'\''s\: about 395).]:days:'
        '--valid-from-days[Days from now until it becomes valid; negative for a start in the past (with a short --days, an expired certificate for tests).]:days:'
        '--password-file[A file holding the password for the .p12 (default\: a random one, written to BUNDLE.password).]:path:_files'
        '--out[The directory to write to (default\: the current directory).]:dir:_files -/'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_channel() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Create a channel; prints its id.'
            'list:List the app'\''s channel ids, one per line.'
            'read:Show a channel'\''s storage policy and push type.'
            'delete:Delete a channel.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|list|read|delete)
            "_pushctl_channel_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_pushctl_channel_create() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar ___storage=('none' 'latest')
    local -ar arg_specs=(
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--cert[Authenticate with a certificate instead of a key\: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).]:path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-key[The certificate'\''s private key (PEM), when --cert holds only the certificate.]:path:_files -g '\''*.pem *.key'\'''
        '--cert-password-file[A file holding the .p12'\''s (or the key'\''s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--jwt[A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).]:token:'
        '--no-jwt-cache[Sign a new JWT instead of reusing the cached one.]'
        '--topic[Your app'\''s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).]:bundle-id:'
        '--sandbox[The sandbox'\''s channel API\: api-manage-broadcast.sandbox.push.apple.com\:2195 (default; env PUSHCTL_ENV).]'
        '--production[Production'\''s\: api-manage-broadcast.push.apple.com\:2196.]'
        '--endpoint[This https URL instead (e.g. pushctl mock'\''s) (env PUSHCTL_ENDPOINT).]:url:'
        '--cacert[Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).]:path:_files -g '\''*.pem *.crt'\'''
        '--proxy[Through this proxy (env PUSHCTL_PROXY).]:url:'
        '--request-id[apns-request-id, a UUID the server echoes.]:uuid:'
        '--timeout[Seconds to wait for the answer.]:seconds:'
        '--retries[Retries on 429, 5xx and timeouts.]:n:'
        '--output[text or json.]:output:{__pushctl_complete "${___output[@]}"}'
        '--verbose[Show libcurl'\''s trace on stderr (the JWT redacted).]'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--storage[Message storage\: none keeps nothing, latest the last message.]:storage:{__pushctl_complete "${___storage[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_channel_list() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--cert[Authenticate with a certificate instead of a key\: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).]:path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-key[The certificate'\''s private key (PEM), when --cert holds only the certificate.]:path:_files -g '\''*.pem *.key'\'''
        '--cert-password-file[A file holding the .p12'\''s (or the key'\''s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--jwt[A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).]:token:'
        '--no-jwt-cache[Sign a new JWT instead of reusing the cached one.]'
        '--topic[Your app'\''s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).]:bundle-id:'
        '--sandbox[The sandbox'\''s channel API\: api-manage-broadcast.sandbox.push.apple.com\:2195 (default; env PUSHCTL_ENV).]'
        '--production[Production'\''s\: api-manage-broadcast.push.apple.com\:2196.]'
        '--endpoint[This https URL instead (e.g. pushctl mock'\''s) (env PUSHCTL_ENDPOINT).]:url:'
        '--cacert[Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).]:path:_files -g '\''*.pem *.crt'\'''
        '--proxy[Through this proxy (env PUSHCTL_PROXY).]:url:'
        '--request-id[apns-request-id, a UUID the server echoes.]:uuid:'
        '--timeout[Seconds to wait for the answer.]:seconds:'
        '--retries[Retries on 429, 5xx and timeouts.]:n:'
        '--output[text or json.]:output:{__pushctl_complete "${___output[@]}"}'
        '--verbose[Show libcurl'\''s trace on stderr (the JWT redacted).]'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_channel_read() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        ':id:'
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--cert[Authenticate with a certificate instead of a key\: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).]:path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-key[The certificate'\''s private key (PEM), when --cert holds only the certificate.]:path:_files -g '\''*.pem *.key'\'''
        '--cert-password-file[A file holding the .p12'\''s (or the key'\''s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--jwt[A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).]:token:'
        '--no-jwt-cache[Sign a new JWT instead of reusing the cached one.]'
        '--topic[Your app'\''s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).]:bundle-id:'
        '--sandbox[The sandbox'\''s channel API\: api-manage-broadcast.sandbox.push.apple.com\:2195 (default; env PUSHCTL_ENV).]'
        '--production[Production'\''s\: api-manage-broadcast.push.apple.com\:2196.]'
        '--endpoint[This https URL instead (e.g. pushctl mock'\''s) (env PUSHCTL_ENDPOINT).]:url:'
        '--cacert[Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).]:path:_files -g '\''*.pem *.crt'\'''
        '--proxy[Through this proxy (env PUSHCTL_PROXY).]:url:'
        '--request-id[apns-request-id, a UUID the server echoes.]:uuid:'
        '--timeout[Seconds to wait for the answer.]:seconds:'
        '--retries[Retries on 429, 5xx and timeouts.]:n:'
        '--output[text or json.]:output:{__pushctl_complete "${___output[@]}"}'
        '--verbose[Show libcurl'\''s trace on stderr (the JWT redacted).]'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_channel_delete() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        ':id:'
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--cert[Authenticate with a certificate instead of a key\: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).]:path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-key[The certificate'\''s private key (PEM), when --cert holds only the certificate.]:path:_files -g '\''*.pem *.key'\'''
        '--cert-password-file[A file holding the .p12'\''s (or the key'\''s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--jwt[A provider token made elsewhere, instead of signing one (env PUSHCTL_JWT).]:token:'
        '--no-jwt-cache[Sign a new JWT instead of reusing the cached one.]'
        '--topic[Your app'\''s bundle id, without a push-type suffix (env PUSHCTL_TOPIC).]:bundle-id:'
        '--sandbox[The sandbox'\''s channel API\: api-manage-broadcast.sandbox.push.apple.com\:2195 (default; env PUSHCTL_ENV).]'
        '--production[Production'\''s\: api-manage-broadcast.push.apple.com\:2196.]'
        '--endpoint[This https URL instead (e.g. pushctl mock'\''s) (env PUSHCTL_ENDPOINT).]:url:'
        '--cacert[Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).]:path:_files -g '\''*.pem *.crt'\'''
        '--proxy[Through this proxy (env PUSHCTL_PROXY).]:url:'
        '--request-id[apns-request-id, a UUID the server echoes.]:uuid:'
        '--timeout[Seconds to wait for the answer.]:seconds:'
        '--retries[Retries on 429, 5xx and timeouts.]:n:'
        '--output[text or json.]:output:{__pushctl_complete "${___output[@]}"}'
        '--verbose[Show libcurl'\''s trace on stderr (the JWT redacted).]'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_doctor() {
    local -i ret=1
    local -ar ___output=('text' 'json')
    local -ar ___lang=('en' 'es')
    local -ar arg_specs=(
        '--key-file[The .p8 private key from Apple, or a key in a PKCS#11 token as a pkcs11\: URI, PIN from pin-source=file\:PATH (env PUSHCTL_KEY_FILE; PUSHCTL_KEY holds the PEM itself). A PKCS#11 module runs code\: trusted ones only.]:path:_files -g '\''*.p8 *.pem'\'''
        '--signer[Sign with this command instead of a key (a KMS, Vault)\: it reads the JWT'\''s signing input on stdin and prints an ES256 signature, within 30 s (env PUSHCTL_SIGNER). It runs code as you\: trusted configuration only.]:command:'
        '--public-key[The signing key'\''s public half (PEM key or certificate), to check each signature before use (default\: <KEYID>.pem in this folder, if there).]:path:_files -g '\''*.pem *.crt'\'''
        '--key-id[The 10-character Key ID (env PUSHCTL_KEY_ID; default\: the <ID> in AuthKey_<ID>.p8).]:id:'
        '--team-id[The 10-character Team ID (env PUSHCTL_TEAM_ID).]:id:'
        '--cert[Authenticate with a certificate instead of a key\: the .p12 exported from Keychain Access, or a PEM certificate (env PUSHCTL_CERT).]:path:_files -g '\''*.p12 *.pfx *.pem *.crt *.cer'\'''
        '--cert-key[The certificate'\''s private key (PEM), when --cert holds only the certificate.]:path:_files -g '\''*.pem *.key'\'''
        '--cert-password-file[A file holding the .p12'\''s (or the key'\''s) password (env PUSHCTL_CERT_PASSWORD; asked on a terminal otherwise).]:path:_files'
        '--endpoint[Check only this https URL (e.g. pushctl mock'\''s) (env PUSHCTL_ENDPOINT).]:url:'
        '--cacert[Also trust this CA certificate (PEM) (env PUSHCTL_CACERT).]:path:_files -g '\''*.pem *.crt'\'''
        '--proxy[Connect through this proxy, as send does (env PUSHCTL_PROXY; else https_proxy).]:url:'
        '--proxy-user-file[The proxy'\''s user\:password, read from this file.]:path:_files'
        '--device-token[Send a real test notification (an alert) to this device.]:hex:'
        '--topic[The bundle id for the test notification (env PUSHCTL_TOPIC).]:bundle-id:'
        '--timeout[Seconds each check may take.]:seconds:'
        '--output[text (a line per check) or json (one document).]:output:{__pushctl_complete "${___output[@]}"}'
        '--lang[Language of the messages\: en or es (default\: PUSHCTL_LANG, else the locale\: LC_ALL, LC_MESSAGES, LANG).]:en|es:{__pushctl_complete "${___lang[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_mock() {
    local -i ret=1
    local -ar arg_specs=(
        '*:arguments:{__pushctl_custom_complete ---completion mock -- positional@0 "${current_word_index}" "$(__pushctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_demo() {
    local -i ret=1
    local -ar arg_specs=(
        '*:arguments:{__pushctl_custom_complete ---completion demo -- positional@0 "${current_word_index}" "$(__pushctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_check() {
    local -i ret=1
    local -ar arg_specs=(
        '*:arguments:{__pushctl_custom_complete ---completion check -- positional@0 "${current_word_index}" "$(__pushctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_pushctl_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _pushctl ]]; then
    _pushctl "${@}"
else
    compdef _pushctl pushctl
fi
