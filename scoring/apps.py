from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from scoring import jobs, stats

        # Statistics and ratings follow the games a re-score job changed.
        jobs.AFTER_JOB.append(stats.job_games_changed)
